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
            because: decision.operatorWords == nil ? why : nil, Self.fact(of: decision), grant: grantId)
        // The game learns of it from the outbox, committed with the change.
        if let event = decision.event { try await recordEvent(event, order: saved, grantKind: decision.grant?.kind, reason: decision.operatorWords) }
        return saved
    }

    /// What a decision's audit entry records beside its reason and the state change: a
    /// retry's next try, the purchase a verification found.
    private static func fact(of decision: OrderDecision) -> AuditDetail.Fact? {
        switch decision.move {
        case .retry(let ourSetup): .nextTry(at: decision.order.nextRetryAt, ourSetup: ourSetup)
        case .receiptReceived(let submission, let source): .submission(id: submission, source: source, whileIn: nil)
        case .unconfirmed: .needsOperator
        case .confirmed: .storeConfirms(transactionId: decision.order.transactionId)
        case .deliver(confirmed: false): .deliveredUnconfirmed
        case .verified(let holder?): .restoreOf(holder: holder)
        case .verified(nil): .verified(transactionId: decision.order.transactionId, environment: decision.order.environment)
        default: nil
        }
    }

    /// R11's refusal of a second delivery: who delivered the order and when.
    func alreadyDelivered(_ orderId: String) async throws -> StoreError {
        guard let live = try await liveGrant(orderId: orderId) else { return try await conflict(orderId: orderId) }
        return .alreadyDelivered(orderId: orderId, by: live.by, at: live.at)
    }
}
