import OrderDomain
import SQLKit

/// What storing a notification came to; the receiver answers Apple from it.
public enum NotificationReceipt: Sendable, Equatable {
    /// Stored and owed to the worker: answer 2xx.
    case stored(id: Int64)
    /// Stored before (Apple retries with the same `notificationUUID`): answer 2xx again.
    case duplicate(id: Int64)
    /// Kept for operators (bounded), changes nothing.
    case rejected(id: Int64)
}

extension OrderStore {
    /// Apple's notifications: stored as they came (verified or rejected), applied by the
    /// worker in order, listed and replayed by operators.
    public var notifications: AppleNotifications { AppleNotifications(store: self) }
}

/// The notifications of one store (``OrderStore/notifications``).
public struct AppleNotifications: Sendable {
    let store: OrderStore

    /// Rejected notifications kept at most: an outsider may post any number of them.
    public static let maxRejected = 1_000

    /// Stores a notification before anything acts on it (R1: it is the 2xx's promise). A
    /// verified one is kept once per `notificationUUID` and owes the worker its application
    /// in the same commit; a rejected one is kept for operators, the oldest dropped past
    /// `maxRejected`.
    public func receive(_ notification: IncomingNotification, at now: Millis = .now()) async throws -> NotificationReceipt {
        try await store.write(as: .system, now: now) { tx in try await tx.receive(notification) }
    }

    /// Group commit of notifications (see `writeBatch`): one durable commit answers many.
    /// On PostgreSQL a batch of verified notifications is one statement (`receiveInOneStatement`).
    public func receive(all batch: [IncomingNotification], at now: Millis = .now()) async throws -> [Result<NotificationReceipt, any Error>] {
        if store.dialect == .postgres, !batch.isEmpty, batch.allSatisfy({ $0.rejection == nil && $0.facts.uuid != nil }) {
            do {
                return try await receiveInOneStatement(batch, at: now).map { .success($0) }
            } catch StoreError.unavailable(let why) {
                throw StoreError.unavailable(why)
            } catch {
                // Nothing was stored (one statement): each is tried alone below, so one bad
                // notification fails by itself.
            }
        }
        return try await store.writeBatch(batch, at: now) { tx, notification in try await tx.receive(notification) }
    }
}

extension WriteTransaction {
    func receive(_ notification: IncomingNotification) async throws -> NotificationReceipt {
        let inserted = try await sql.row(
            """
            INSERT INTO notifications (\(unsafeRaw: NotificationInsert.columns)) VALUES \(try NotificationInsert.values(notification, at: now))
            ON CONFLICT (uuid) DO NOTHING RETURNING id
            """)
        guard let id = try inserted?.int64("id") else {
            let first = try await sql.row("SELECT id FROM notifications WHERE uuid = \(bind: notification.facts.uuid)")
            return .duplicate(id: try first?.int64("id") ?? 0)
        }
        guard notification.rejection == nil else {
            try await sql.raw(
                """
                DELETE FROM notifications WHERE rejection IS NOT NULL AND id <= (
                  SELECT id FROM notifications WHERE rejection IS NOT NULL ORDER BY id DESC LIMIT 1 OFFSET \(literal: AppleNotifications.maxRejected))
                """
            ).run()
            return .rejected(id: id)
        }
        enqueueAtCommit(.applyNotifications(key: notification.facts.applyKey), dueAt: now)
        return .stored(id: id)
    }
}

extension AppleNotifications {
    /// Applies the pending notifications about one purchase (`key`, its original
    /// transaction id), oldest `signedDate` first, each in a commit of its own. Returns how
    /// many were applied.
    @discardableResult
    public func apply(key: String, at now: Millis = .now()) async throws -> Int {
        try await apply(key: key, at: now, finishing: nil).applied
    }

    /// ``apply(key:at:)`` for the worker holding `lease`, its job for `key`: the list is read
    /// in the first commit and the job finished (as ``JobQueue/finish(_:owner:result:now:)``
    /// does for `.done`) in the last, so the usual job of one notification is one commit
    /// where it was a read and two. `finished` says whether the fence matched.
    public func apply(key: String, at now: Millis = .now(), finishing lease: JobLease?) async throws -> (applied: Int, finished: Bool?) {
        var pending: [Int64]?
        var applied = 0
        var finished: Bool?
        repeat {
            finished = try await store.write(as: .system, now: now) { tx in
                let record: NotificationRecord?
                if let pending {
                    record = try await tx.notificationRecord(pending[applied])
                } else {
                    // Read whole: the first is applied from this very read.
                    let records = try await tx.pendingNotifications(key: key)
                    pending = records.map(\.id)
                    record = records.first
                }
                if let record { try await apply(record, in: tx) }
                // Gone or applied meanwhile, it is passed over all the same.
                if applied < pending?.count ?? 0 { applied += 1 }
                guard applied == pending?.count, let lease else { return nil }
                return try await tx.finishLeasedJob(lease.fence)
            }
        } while applied < pending?.count ?? 0
        return (applied, finished)
    }

    private func apply(_ record: NotificationRecord, in tx: WriteTransaction) async throws {
        guard record.outcome == .pending else { return }
        let (outcome, detail) = try await store.applyNotification(tx, record)
        try await tx.setNotificationOutcome(record.id, outcome, detail: detail)
        tx.audit(
            .notification(outcome), target: record.facts.transaction.map { .transaction($0.transactionId) } ?? .notification(record.id),
            .notification(id: record.id, type: record.facts.kind))
    }

    /// Puts a stored, verified notification through the rules again (after an operator
    /// attached the orphan it was about, say). Audited with the reason.
    public func replay(id: Int64, by actor: Operator, reason: String, at now: Millis = .now()) async throws {
        try store.requireOperator(actor, may: .replayNotifications, reason: reason)
        try await store.write(as: actor, now: now) { tx in
            guard let record = try await tx.notificationRecord(id) else { throw StoreError.notFound(kind: .notification, id: "\(id)") }
            guard record.rejection == nil else { throw StoreError.notificationRejected(id: id) }
            try await tx.sql.raw("UPDATE notifications SET outcome = 'pending', applied_at = NULL WHERE id = \(bind: id)").run()
            try await tx.enqueue(.applyNotifications(key: record.facts.applyKey), dueAt: now)
            tx.audit(.notificationReplay, target: .notification(id), reason: reason, .notificationReplayed(type: record.facts.kind, was: record.outcome))
        }
    }

}

extension OrderStore {
    /// Apple's word on the subscription `facts` is about, kept as of its `signedDate`: the
    /// row is made when no order holds the subscription yet (owner unknown, so support sees
    /// its status and the order that later submits it starts from Apple's facts), its end
    /// follows the stored periods, and its facts are replaced unless newer ones are stored.
    /// Returns whether these facts are the subscription's now; nil when `facts` is about no
    /// subscription.
    @discardableResult
    func keepSubscriptionFacts(
        _ tx: WriteTransaction, _ facts: NotificationFacts, from marketplace: Marketplace, effect: NotificationEffect, signed: Millis
    ) async throws -> Bool? {
        guard let otid = facts.originalTransactionId else { return nil }
        let stored = try await tx.subscriptionRow(otid)
        guard
            let said = SubscriptionFactsRule.facts(
                of: facts, effect: effect, chain: try await tx.chain(otid), stored: stored, signed: signed)
        else { return nil }
        guard stored != nil else {
            guard let productId = facts.transaction?.productId ?? facts.renewal?.productId else { return nil }
            try await tx.insertSubscription(otid, in: marketplace, owner: nil, productId: productId, facts: said)
            tx.audit(
                .subscriptionUnowned, target: .originalTransaction(otid),
                .unowned(notification: facts.kind, status: said.status))
            return true
        }
        try await tx.refreshExpiry(otid)
        guard try await tx.updateFacts(otid, said) else {
            tx.audit(.subscriptionFactsIgnored, target: .originalTransaction(otid), .olderFacts(notification: facts.kind))
            return false
        }
        tx.audit(
            .subscriptionRenewalStatus, target: .originalTransaction(otid),
            .facts(status: said.status, autoRenew: said.autoRenew, source: said.source, signedAt: signed, notification: facts.kind))
        return true
    }

    /// One notification through the rules, in the caller's transaction: what it did.
    func applyNotification(_ tx: WriteTransaction, _ record: NotificationRecord) async throws -> (NotificationOutcome, NotificationDetail) {
        let facts = record.facts
        let effect = NotificationEffect.of(facts)
        let signed = facts.signedDate ?? record.receivedAt
        // A refund recovered late must not undo a reversal Apple signed after it, nor the other way round.
        if let family = effect.family, let tid = facts.transaction?.transactionId,
            let newer = try await tx.newerApplied(transactionId: tid, types: family, after: signed, excluding: record.id)
        {
            return (.superseded, .supersededBy(notification: newer.id, type: newer.type, transactionId: tid))
        }
        if let transaction = facts.transaction {
            try await tx.storeTransactions([transaction], environment: AppleEnvironment(rawValue: facts.environment ?? "") ?? record.endpoint)
        }
        let (outcome, detail) = try await applyEffect(tx, effect, of: facts, signed: signed)
        // After the purchase's own effect (a period refunded, a refund reversed), Apple's word
        // on the subscription as a whole.
        let current = try await keepSubscriptionFacts(tx, facts, from: record.marketplace, effect: effect, signed: signed)
        if case .subscriptionStatus = effect, current == false {
            return (.superseded, .subscriptionFactsNewer(originalTransactionId: facts.originalTransactionId))
        }
        return (outcome, detail)
    }

    /// What `effect` does to the purchase the notification is about.
    private func applyEffect(_ tx: WriteTransaction, _ effect: NotificationEffect, of facts: NotificationFacts, signed: Millis) async throws
        -> (NotificationOutcome, NotificationDetail)
    {
        switch effect {
        case .partialRefund(let share):
            guard let t = facts.transaction else { return (.recorded, .noTransaction) }
            guard let detail = try await settleRefundedShare(tx, transactionId: t.transactionId, share: share) else {
                return (.orphan, .shareUnclaimed(transactionId: t.transactionId, share: share))
            }
            return (.applied, detail)
        case .cancel(let kind):
            guard let t = facts.transaction else { return (.recorded, .noTransaction) }
            let order = try await applyCancellation(
                tx, transactionId: t.transactionId, cancelledAt: t.cancellationDate ?? signed,
                reason: t.cancellationReason, kind: kind)
            guard let order else {
                return (.orphan, .cancelUnclaimed(transactionId: t.transactionId, revoked: kind == .revoke))
            }
            return (
                .applied,
                order.state == .refunded ? .orderRefunded(orderId: order.orderId) : .nothingToTakeBack(orderId: order.orderId, state: order.state)
            )
        case .refundReversed:
            guard let t = facts.transaction else { return (.recorded, .noTransaction) }
            if try await tx.shareTakenBack(t.transactionId) > 0 {
                try await tx.setCancellation(transactionId: t.transactionId, at: nil, reason: nil)
                return (.applied, try await settleRefundedShare(tx, transactionId: t.transactionId, share: 0) ?? .shareCleared)
            }
            guard let order = try await applyRefundReversal(tx, transactionId: t.transactionId) else {
                return (.orphan, .reversalUnclaimed(transactionId: t.transactionId))
            }
            return (
                .applied,
                order.state == .delivered
                    ? .deliveredAgain(orderId: order.orderId) : .nothingToDeliverAgain(orderId: order.orderId, state: order.state)
            )
        case .newPeriod:
            guard let t = facts.transaction else { return (.recorded, .noTransaction) }
            guard let owner = try await tx.subscriptionRow(t.originalTransactionId)?.ownerAccount else {
                return (.orphan, .periodWaits(originalTransactionId: t.originalTransactionId, transactionId: t.transactionId, until: t.expiresDate))
            }
            return (.applied, .periodForOwner(transactionId: t.transactionId, until: t.expiresDate, owner: owner))
        case .subscriptionStatus(let status, let autoRenew):
            guard let otid = facts.originalTransactionId else { return (.recorded, .noSubscription) }
            let said = facts.status.flatMap { SubscriptionStatus(apple: $0, familyRevoke: false) } ?? status
            let owned = try await tx.subscriptionRow(otid)?.ownerAccount != nil
            let stands = NotificationDetail.subscriptionStands(
                originalTransactionId: otid, status: said, autoRenew: facts.renewal?.autoRenewEnabled ?? autoRenew, ownerKnown: owned)
            return (owned ? .applied : .orphan, stands)
        case .consumptionRequest:
            return (.recorded, .refundRequested(reason: facts.consumptionRequestReason, answerBy: signed + NotificationEffect.consumptionDeadline))
        case .purchase:
            guard let t = facts.transaction else { return (.recorded, .noTransaction) }
            guard let orderId = try await tx.storedTransaction(t.transactionId)?.orderId else {
                return (.orphan, .purchaseUnclaimed(transactionId: t.transactionId))
            }
            return (.recorded, .purchaseClaimed(orderId: orderId, transactionId: t.transactionId))
        case .consentRescinded:
            guard let app = facts.appTransactionId else { return (.recorded, .noAppTransaction) }
            let accounts = try await tx.accounts(ofAppTransaction: app)
            guard !accounts.isEmpty else { return (.orphan, .consentUnclaimed(appTransactionId: app)) }
            for account in accounts { try await tx.recordConsentRescinded(account: account, appTransactionId: app) }
            return (.applied, .consentRescinded(appTransactionId: app, accounts: accounts))
        case .extensionSummary:
            let summary = facts.extensionSummary
            let id = summary?.requestIdentifier ?? "?"
            let asked = try await tx.recordMassExtensionProgress(
                requestId: id, completeAt: signed, succeeded: summary?.succeededCount, failed: summary?.failedCount)
            let finished = NotificationDetail.extensionFinished(
                requestId: id, productId: summary?.productId, succeeded: summary?.succeededCount ?? 0, failed: summary?.failedCount ?? 0, askedByUs: asked)
            return (asked ? .applied : .recorded, finished)
        case .askGoogle:
            guard let token = facts.purchaseToken else { return (.recorded, .noPurchaseToken) }
            try await tx.enqueue(.playRefresh(purchaseToken: token), dueAt: tx.now)
            return (.applied, .googleAsked)
        case .record:
            return (.recorded, .kept)
        }
    }
}
