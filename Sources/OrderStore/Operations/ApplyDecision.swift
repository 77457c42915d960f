import OrderDomain

extension WriteTransaction {
    /// Applies a decision of the rules (``OrderRules``) in this transaction: the grant written
    /// (R11's unique index refuses a second), the account marked, the grant linked or taken
    /// back, the order's row and its audit entries, the game's event.
    func apply(_ decision: OrderDecision, to previous: Order) async throws -> Order {
        let why = decision.order.why
        var grantId: Int64?
        if let grant = decision.grant {
            grantId = try await insertGrant(previous, transactionId: grant.transactionId, kind: grant.kind, reason: decision.operatorWords)
            guard grantId != nil else { throw try await alreadyDelivered(previous.orderId) }
        }
        if let flag = decision.flag, let why { try await flagAccount(previous, flag, because: why) }
        if let other = decision.alsoAudits, let why { try audit(decision.audit, target: .order(other), because: why) }
        if case .confirmed = decision.move, let transactionId = decision.order.transactionId {
            try await linkLiveGrant(orderId: previous.orderId, transactionId: transactionId)
        }
        if let revoke = decision.revoke {
            try await revokeLiveGrant(orderId: previous.orderId, by: revoke.by, reason: revoke.words, why: revoke.why)
        }
        // An operator's act is audited with their words; the rules' own with their reason.
        let saved = try await save(
            decision.order, previous: previous, action: decision.audit, reason: decision.operatorWords,
            because: decision.operatorWords == nil ? why : nil, detail: Self.detail(of: decision), grant: grantId)
        // The game learns of it from the outbox, committed with the change.
        if let event = decision.event { try await recordEvent(event, order: saved, grantKind: decision.grant?.kind, reason: decision.operatorWords) }
        return saved
    }

    /// What a decision's audit entry says beside its reason and the state change: a retry's
    /// next try, the purchase a verification found.
    private static func detail(of decision: OrderDecision) -> String {
        switch decision.move {
        case .retry(let ourSetup):
            decision.order.nextRetryAt.map { "next try \($0.iso8601)" + (ourSetup ? "; needs operator" : "") } ?? "retry schedule exhausted: needs operator"
        case .receiptReceived(let submission, let source): "submission \(submission) from \(source)"
        case .unconfirmed: "needs operator"
        case .confirmed: "Apple confirms transaction \(decision.order.transactionId ?? "?")"
        case .deliver(confirmed: false): "unconfirmed: Apple has not yet said which purchase paid; verifying on the R4 schedule"
        case .verified(let holder?): "restore of the purchase order \(holder) holds for the same account"
        case .verified(nil): "transaction \(decision.order.transactionId ?? "?") in \(decision.order.environment?.rawValue ?? "unknown environment")"
        default: ""
        }
    }

    /// R11's refusal of a second delivery: who delivered the order and when.
    func alreadyDelivered(_ orderId: String) async throws -> StoreError {
        guard let live = try await liveGrant(orderId: orderId) else { return try await conflict(orderId: orderId) }
        return .alreadyDelivered(orderId: orderId, by: live.by, at: live.at)
    }
}
