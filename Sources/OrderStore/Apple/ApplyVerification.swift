import Foundation
import OrderDomain
import SQLKit

extension OrderStore {
    /// `releasingClaimOf`: the owner of the order's verify claim (`reverify`), released in
    /// the same transaction as the answer.
    ///
    /// Another writer may change the order between this transaction's read and its update
    /// (on PostgreSQL, the worker verifying an order an operator re-verifies or attaches to,
    /// or two processes): the store's answer still holds, so it is applied again to the
    /// order as it is now, where the rules see what that change did (a delivered order is
    /// rechecked, never granted twice). A deadlock PostgreSQL broke against such a writer
    /// (the worker applying a refund to the subscription an operator re-verifies) is the
    /// same race told another way and is tried again the same way. Only a third in a row
    /// reaches the caller.
    func applyAnswer(
        orderId: String, submissionId: Int64?, report: VerificationReport, reopen: Bool, releasingClaimOf owner: String?,
        at now: Millis = .now()
    ) async throws -> VerificationOutcome {
        var tries = 1
        while true {
            do {
                return try await applyAnswerOnce(
                    orderId: orderId, submissionId: submissionId, report: report, reopen: reopen, releasingClaimOf: owner, at: now)
            } catch  where tries < 3 && Self.isRace(error) {
                tries += 1
            }
        }
    }

    /// Another writer got there first: a stale version, or a deadlock or serialization
    /// failure PostgreSQL ended by rolling this transaction back.
    private static func isRace(_ error: any Error) -> Bool {
        if case StoreError.conflict = error { return true }
        return DatabaseErrorText.isTransactionRace(error)
    }

    private func applyAnswerOnce(
        orderId: String, submissionId: Int64?, report: VerificationReport, reopen: Bool, releasingClaimOf owner: String?, at now: Millis
    ) async throws -> VerificationOutcome {
        try await write(as: .system, now: now) { tx in
            let order = try await tx.requireOrder(orderId)
            var report = report
            if let play = report.play { report.content = try await tx.keepPlayPurchase(play, content: report.content) }
            let classification = StatusCodeRule.classify(report)
            let attemptId = try await recordAttempt(tx, orderId: orderId, submissionId: submissionId, report: report, classification: classification)
            var outcome = VerificationOutcome(
                order: order, classification: classification, picked: nil, checks: [], ownership: nil,
                flaggedSandbox: EnvironmentRule.isFlaggedSandbox(report.environment, storeIsProduction: settings.isProduction), report: report,
                outcomeKind: classification.outcome)
            switch order.state {
            case .delivered where order.isUnconfirmedDelivery:
                try await confirmDelivery(tx, order: order, submissionId: submissionId, report: report, outcome: &outcome)
            case _ where order.awaitsVerification:
                // A verified order Apple confirmed before, whose delivery never happened (a
                // crash between), is finished by the same claim and grant, once; an answer
                // that is not valid leaves it as it is.
                guard order.state != .verified || classification.isValid else { break }
                try await settle(tx, order: order, submissionId: submissionId, report: report, outcome: &outcome)
            case .rejected where reopen:
                try await settle(tx, order: order, submissionId: submissionId, report: report, outcome: &outcome)
            case .delivered, .refunded:
                try await recheck(tx, order: order, report: report, outcome: &outcome)
            case .disputed:
                try await redecide(tx, order: order, report: report, outcome: &outcome)
            default:
                break  // the attempt is recorded; the state is the operator's business now
            }
            try await tx.sql.raw("UPDATE verification_attempts SET verdict = \(bind: try outcome.verdict.json()) WHERE id = \(bind: attemptId)").run()
            if let owner { try await Self.releaseAnswered(tx, orderId: orderId, owner: owner) }
            return outcome
        }
    }

    /// A paid order meets Apple's answer: retry, reject, or claim the purchase and deliver.
    private func settle(_ tx: WriteTransaction, order: Order, submissionId: Int64?, report: VerificationReport, outcome: inout VerificationOutcome) async throws
    {
        var next = order
        next.environment = report.environment ?? order.environment
        guard let (purchase, content) = try await answerHolds(tx, order: order, as: next, submissionId: submissionId, report: report, outcome: &outcome)
        else { return }
        switch try await tx.claim(purchase.transaction, type: purchase.type, for: order) {
        case .replay(let holderOrder, let holderAccount, let key):
            let holder = PurchaseHolder(order: holderOrder, account: holderAccount, key: key)
            try await apply(tx, OrderRules.replay(next, heldBy: holder), to: order, outcome: &outcome)
        case .restore(let holder):
            try await verifyAndDeliver(
                tx, OrderRules.verified(next, by: purchase.transaction, restoreOf: holder), previous: order, purchase: purchase, kind: .restore,
                content: content, report: report, outcome: &outcome)
        case .claimed:
            try await verifyAndDeliver(
                tx, OrderRules.verified(next, by: purchase.transaction, restoreOf: nil), previous: order, purchase: purchase, kind: .automatic,
                content: content, report: report, outcome: &outcome)
        }
    }

    private func verifyAndDeliver(
        _ tx: WriteTransaction, _ verified: OrderDecision, previous: Order, purchase: Purchase, kind: GrantKind,
        content: AppleReceiptContent, report: VerificationReport, outcome: inout VerificationOutcome
    ) async throws {
        let current = try await tx.apply(verified, to: previous)
        outcome.order = current
        if purchase.type == .autoRenewable {
            let decision = try await decideOwnership(tx, order: current, transaction: purchase.transaction, content: content, source: FactSource(report.method))
            outcome.ownership = decision
            if case .ownerKeeps = decision {
                outcome.order = try await tx.apply(OrderRules.dispute(current, ownership: decision), to: current)
                return
            }
        }
        outcome.order = try await deliver(tx, order: current, transactionId: purchase.transaction.transactionId, kind: kind, reason: nil)
    }

    /// A disputed renewal seen again. Apple's answer may carry what the store missed when
    /// it decided (the owner's last period refunded, their renewal turned off): R8 decides
    /// again on it, and if the owner had lapsed by the renewal (or the submitter owns the
    /// subscription by now), the rule settles the dispute for the submitter. If the owner
    /// still keeps it, it waits for an operator as before.
    private func redecide(_ tx: WriteTransaction, order: Order, report: VerificationReport, outcome: inout VerificationOutcome) async throws {
        guard outcome.classification.isValid, let content = report.content, let transactionId = order.transactionId,
            let renewal = TransactionPicking.merged(content).first(where: { $0.transactionId == transactionId })
        else { return }
        try await tx.storeTransactions(content.inApp + content.latestReceiptInfo, environment: report.environment)
        let decision = try await decideOwnership(
            tx, order: order, transaction: renewal, content: content,
            source: FactSource(report.method), recordingOwnerKeeps: false)
        outcome.ownership = decision
        if case .ownerKeeps = decision { return }
        try await tx.closeReview(orderId: order.orderId)
        outcome.order = try await deliver(tx, order: order, transactionId: transactionId, kind: .automatic, reason: nil)
        try await tx.refreshExpiry(renewal.originalTransactionId)
    }

    /// R3–R6 on an answer: applies the decision that ends there (a retry, a rejection, a hand
    /// delivery left unconfirmed) and returns nil, or returns the purchase the order goes on
    /// to claim (R7). `next` is the order as the answer leaves it before any decision.
    func answerHolds(
        _ tx: WriteTransaction, order: Order, as next: Order, submissionId: Int64?, report: VerificationReport, outcome: inout VerificationOutcome
    ) async throws -> (Purchase, AppleReceiptContent)? {
        if let decision = OrderRules.afterAnswer(next, outcome.classification, hasContent: report.content != nil, now: tx.now) {
            try await apply(tx, decision, to: order, outcome: &outcome)
            return nil
        }
        guard let content = report.content else { return nil }
        guard let purchase = try await examine(tx, order: order, submissionId: submissionId, report: report, content: content, outcome: &outcome) else {
            if let decision = OrderRules.afterChecks(next, outcome.checks, now: tx.now) { try await apply(tx, decision, to: order, outcome: &outcome) }
            return nil
        }
        return (purchase, content)
    }

    /// Applies a decision of the rules to the order an answer was about.
    func apply(_ tx: WriteTransaction, _ decision: OrderDecision, to order: Order, outcome: inout VerificationOutcome) async throws {
        if let kind = decision.outcome { outcome.outcomeKind = kind }
        outcome.order = try await tx.apply(decision, to: order)
    }

    /// A purchase Apple's answer showed for an order, with its product type.
    struct Purchase {
        var transaction: AppleTransaction
        var type: ProductType
    }

    /// R6 and R5 on a valid answer: picks the order's transaction, keeps every transaction
    /// Apple showed, runs the checks into `outcome`. Nil when a check failed.
    func examine(
        _ tx: WriteTransaction, order: Order, submissionId: Int64?, report: VerificationReport, content: AppleReceiptContent,
        outcome: inout VerificationOutcome
    ) async throws -> Purchase? {
        let types = try await tx.sql.productTypes()
        guard let productType = types[order.productId] else { throw StoreError.notFound(kind: .product, id: order.productId) }
        let claimedId = try await claimedTransactionId(tx, submissionId: submissionId)
        var held = Set<String>()
        if claimedId == nil {
            // R6 passes over purchases another order holds, latest first, until a free one.
            for candidate in TransactionPicking.merged(content) where candidate.productId == order.productId {
                guard try await tx.heldByAnother(candidate, type: productType, order: order) else { break }
                held.insert(candidate.transactionId)
            }
        }
        let picked = TransactionPicking.pick(
            for: order, productType: productType, claimedTransactionId: claimedId, in: content, types: types,
            heldByAnother: { held.contains($0.transactionId) })
        outcome.picked = picked
        try await tx.storeTransactions(content.inApp + content.latestReceiptInfo, environment: report.environment)
        outcome.checks = ReceiptChecks.run(
            order: order, productType: productType, expectedBundleId: settings.expectedApp(of: order, product: try await tx.sql.product(order.productId)),
            content: content,
            picked: picked, clockSkew: settings.clockSkew, answerReportsConsumableRefunds: report.method.reportsConsumableRefunds)
        guard ReceiptChecks.firstFailure(outcome.checks) == nil, let picked else { return nil }
        return Purchase(transaction: picked, type: productType)
    }

    /// A delivered, confirmed order seen again: only a refund Apple has since recorded, or
    /// the subscription's newer facts, matter (R8, R9). A refunded order stays refunded
    /// whatever a later answer omits; only REFUND_REVERSED delivers it again.
    private func recheck(_ tx: WriteTransaction, order: Order, report: VerificationReport, outcome: inout VerificationOutcome) async throws {
        guard let content = report.content else { return }
        try await tx.storeTransactions(content.inApp + content.latestReceiptInfo, environment: report.environment)
        let types = try await tx.sql.productTypes()
        let type = types[order.productId] ?? .consumable
        if order.state == .delivered,
            let mine = TransactionPicking.merged(content).first(where: { $0.transactionId == order.transactionId }),
            let cancelled = RefundRule.cancellation(of: mine, type: type, fromJWS: report.method.reportsConsumableRefunds)
        {
            outcome.order = try await refund(tx, order: order, why: Why(.refunded(order.marketplace), ReasonParticulars(cancelledAt: cancelled)))
        }
        if type == .autoRenewable, let otid = order.originalTransactionId {
            try await refreshSubscriptionFacts(tx, otid: otid, content: content, source: FactSource(report.method))
        }
    }

    private func recordAttempt(_ tx: WriteTransaction, orderId: String, submissionId: Int64?, report: VerificationReport, classification: VerificationClass)
        async throws -> Int64
    {
        guard
            let row = try await tx.sql.row(
                """
                INSERT INTO verification_attempts (order_id, submission_id, at, method, environment, outcome, apple_status,
                  http_status, latency_ms, why, body)
                VALUES (\(bind: orderId), \(bind: submissionId), \(bind: tx.now), \(bind: report.method.rawValue),
                        \(bind: report.environment?.rawValue), \(bind: classification.outcome.rawValue), \(bind: report.appleStatus),
                        \(bind: report.httpStatus), \(bind: report.latencyMs), \(bind: try classification.why?.json()), \(bind: report.body))
                RETURNING id
                """)
        else { throw StoreError.corrupt("attempt insert returned no id") }
        return try row.int64("id")
    }

    private func claimedTransactionId(_ tx: WriteTransaction, submissionId: Int64?) async throws -> String? {
        guard let submissionId else { return nil }
        return try await tx.sql.row("SELECT claimed_transaction_id FROM receipt_submissions WHERE id = \(bind: submissionId)")?
            .optionalString("claimed_transaction_id")
    }

    /// R11: the grant row is the delivery. The unique index on live grants makes a second
    /// one impossible; the loser learns who delivered and when.
    func deliver(_ tx: WriteTransaction, order: Order, transactionId: String?, kind: GrantKind, reason: String?) async throws -> Order {
        try await tx.apply(OrderRules.deliver(order, kind: kind, transactionId: transactionId, saying: reason, now: tx.now), to: order)
    }

    /// R9: the order is refunded and its live grant revoked.
    func refund(_ tx: WriteTransaction, order: Order, why: Why) async throws -> Order {
        try await tx.apply(OrderRules.refund(order, because: why), to: order)
    }
}

extension AppleAnswers {
    /// Records one answer from Apple as a verification attempt and applies R2–R9 to the
    /// order, all in one transaction: classification (R3), the retry schedule (R4), the
    /// checks (R5), picking (R6), replay keys (R7), ownership (R8), refunds (R9) and the
    /// automatic grant, exactly once (R11). The store's verdict is kept with the attempt,
    /// so every screen shows the decision that was made rather than computing its own.
    ///
    /// `reopen` lets an admin's re-verification decide a `rejected` order again (a wrong
    /// configuration undone); otherwise a rejected order only gains the attempt.
    ///
    /// - Parameters:
    ///   - orderId: the order Apple was asked about.
    ///   - submissionId: the submission that was sent, or nil for facts from elsewhere.
    ///   - report: Apple's answer, decoded (`VerificationReport`): its status, environment
    ///     and transactions, or the transport failure.
    ///   - reopen: an admin's re-verification of a `rejected` order decides it again.
    ///   - now: when the answer came (tests and the simulator pass their clock).
    /// - Returns: the order after the rules, with the attempt and the verdict.
    /// - Throws: `StoreError/notFound(kind:id:)` for an unknown order. A refusal by a rule
    ///   is not an error: it is the verdict, on the order.
    ///
    /// ```swift
    /// let outcome = try await store.apple.apply(orderId: "ord_1001", submissionId: submission, report: report)
    /// if outcome.order.state == .delivered { /* granted once, by the store */ }
    /// ```
    @discardableResult
    public func apply(orderId: String, submissionId: Int64?, report: VerificationReport, reopen: Bool = false, at now: Millis = .now()) async throws
        -> VerificationOutcome
    {
        try await store.applyAnswer(orderId: orderId, submissionId: submissionId, report: report, reopen: reopen, releasingClaimOf: nil, at: now)
    }
}
