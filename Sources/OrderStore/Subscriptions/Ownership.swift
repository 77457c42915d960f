import Foundation
import OrderDomain
import SQLKit

extension OrderStore {
    /// R8 applied: reads the owner's facts as true just before the renewal was bought,
    /// decides, and records the decision (an ownership event; those needing review show in
    /// `:disputes`). The stored facts are weighed as they were unless they are older than
    /// the renewal: then Apple's answer in hand (its renewal info and the chain of
    /// periods) refreshes them first. A dispute decided again records nothing new when the
    /// owner still keeps it (`recordingOwnerKeeps: false`): its review item stands.
    func decideOwnership(
        _ tx: WriteTransaction, order: Order, transaction: AppleTransaction, content: AppleReceiptContent, source: FactSource,
        recordingOwnerKeeps: Bool = true
    ) async throws -> OwnershipRule.Decision {
        let otid = transaction.originalTransactionId
        let stored = try await tx.subscriptionRow(otid)
        let apple = content.pendingRenewals.first { $0.originalTransactionId == otid }
        let chain = try await tx.chain(otid)
        let owner = stored.flatMap { Self.ownerFacts($0, apple: apple, chain: chain, before: transaction) }
        let decision = OwnershipRule.decide(owner: owner, submitter: order.accountId, purchasedAt: transaction.purchaseDate)

        let facts = Self.factsNow(apple: apple, chain: chain, fallbackAutoRenew: stored?.autoRenew ?? true, now: tx.now, source: source)
        switch decision {
        case .firstOwner(let account):
            if stored == nil {
                try await tx.insertSubscription(otid, in: transaction.marketplace, owner: account, productId: transaction.productId, facts: facts)
            } else {
                try await tx.setOwner(otid, to: account, decidedBy: .rule)
            }
        case .transfer(_, let to, _):
            try await tx.setOwner(otid, to: to, decidedBy: .rule)
        case .sameOwner, .ownerKeeps:
            break
        }
        try await tx.updateFacts(otid, productId: transaction.productId, facts)
        let recorded =
            switch decision {
            case .sameOwner: false
            case .ownerKeeps: recordingOwnerKeeps
            case .firstOwner, .transfer: true
            }
        if recorded {
            let ownerAfter = if case .ownerKeeps(let keeper) = decision { keeper } else { order.accountId }
            try await tx.recordOwnershipEvent(
                otid, orderId: order.orderId, submittedBy: order.accountId, from: owner?.accountId, to: ownerAfter,
                verdict: decision.verdict, decision: decision, needsReview: decision.needsReview)
            tx.audit(.ownership(decision.verdict), target: .originalTransaction(otid), .owner(from: owner?.accountId, to: ownerAfter))
        }
        return decision
    }

    /// The owner's facts at the moment `renewal` was bought: the end of their last period
    /// before it and whether that period was refunded come from the chain of periods
    /// (Apple's history); the renewal intent from the store, confirmed by Apple's current
    /// word when the stored one predates the renewal. A stale "on" holds only if Apple still
    /// says on; a stale "off" stays off, since Apple's "on" may be this very purchase.
    /// Nil while no order holds the subscription: the submitter is its first owner.
    static func ownerFacts(_ stored: Subscription, apple: AppleRenewalInfo?, chain: [AppleTransaction], before renewal: AppleTransaction)
        -> OwnershipRule.OwnerFacts?
    {
        guard let owner = stored.ownerAccount else { return nil }
        let earlier = chain.filter { $0.purchaseDate < renewal.purchaseDate && $0.transactionId != renewal.transactionId }
        let last = earlier.max { $0.purchaseDate < $1.purchaseDate }
        let refundedBefore = last.flatMap { RefundRule.cancellation(of: $0, type: .autoRenewable) }.map { $0 <= renewal.purchaseDate } ?? false
        var autoRenew = stored.autoRenew
        if (stored.factsAsOf ?? 0) < renewal.purchaseDate, let apple { autoRenew = autoRenew && apple.autoRenewEnabled }
        let status: SubscriptionStatus =
            switch stored.status {
            case _ where refundedBefore: stored.status == .revoked ? .revoked : .refunded
            case .billingRetry, .gracePeriod: stored.status
            default: .active  // expiry is judged from the period's end below
            }
        return OwnershipRule.OwnerFacts(
            accountId: owner, autoRenew: autoRenew, status: status,
            periodEnd: earlier.compactMap(\.expiresDate).max() ?? (earlier.isEmpty ? nil : stored.expiresAt))
    }

    /// What Apple's answer says of the subscription now, to be stored with when and how we
    /// learned it. Facts are ordered by Apple's time, never ours: an answer from Apple is as
    /// of now, but an operator's attach only re-reads periods Apple signed earlier, so its
    /// facts are as of the latest of them and a notification Apple signed after it still
    /// counts when it is applied (or replayed) later.
    static func factsNow(apple: AppleRenewalInfo?, chain: [AppleTransaction], fallbackAutoRenew: Bool, now: Millis, source: FactSource) -> SubscriptionFacts {
        let periodEnd = chain.compactMap(\.expiresDate).max()
        let latest = chain.max { $0.purchaseDate < $1.purchaseDate }
        let refunded = latest.flatMap { RefundRule.cancellation(of: $0, type: .autoRenewable) } != nil
        let asOf = source == .operator ? (latest?.purchaseDate ?? 0) : now
        return SubscriptionFacts(
            autoRenew: apple?.autoRenewEnabled ?? fallbackAutoRenew,
            status: SubscriptionStatus.from(renewal: apple, periodEnd: periodEnd, refunded: refunded, now: now),
            expiresAt: periodEnd, asOf: asOf, source: source, renewal: apple.map(RenewalFacts.init))
    }

    /// A later answer about a delivered subscription refreshes what R8 will weigh.
    func refreshSubscriptionFacts(_ tx: WriteTransaction, otid: String, content: AppleReceiptContent, source: FactSource) async throws {
        guard let stored = try await tx.subscriptionRow(otid) else { return }
        let apple = content.pendingRenewals.first { $0.originalTransactionId == otid }
        let facts = Self.factsNow(apple: apple, chain: try await tx.chain(otid), fallbackAutoRenew: stored.autoRenew, now: tx.now, source: source)
        try await tx.updateFacts(otid, facts)
        if facts.autoRenew != stored.autoRenew || facts.status != stored.status {
            tx.audit(
                .subscriptionFacts, target: .originalTransaction(otid),
                .facts(status: facts.status, autoRenew: facts.autoRenew, source: source, signedAt: nil, notification: nil))
        }
    }

    func transfer(_ tx: WriteTransaction, otid: String, from: String?, to: String, orderId: String?, reason: String) async throws {
        try await tx.setOwner(otid, to: to, decidedBy: Decider(tx.actor))
        try await tx.recordOwnershipEvent(
            otid, orderId: orderId, submittedBy: to, from: from, to: to, verdict: .operatorTransfer, reason: reason, needsReview: false)
        tx.audit(.ownership(.transfer), target: .originalTransaction(otid), reason: reason, .owner(from: from, to: to))
    }

    @discardableResult
    func settleDisputed(_ tx: WriteTransaction, _ order: Order, favor: Favor, reason: String) async throws -> Order {
        try await tx.closeReview(orderId: order.orderId)
        if favor == .submitter {
            return try await deliver(tx, order: order, transactionId: order.transactionId, kind: .manual, reason: reason)
        }
        return try await tx.apply(OrderRules.settleForOwner(order, saying: reason), to: order)
    }

    /// Returns whether the facts were newer than those stored (and so applied).
    @discardableResult
    func applyRenewalStatus(
        _ tx: WriteTransaction, _ stored: Subscription, autoRenew: Bool?, status: SubscriptionStatus?,
        asOf: Millis, source: FactSource
    ) async throws -> Bool {
        let otid = stored.originalTransactionId
        let facts = SubscriptionFacts(autoRenew: autoRenew ?? stored.autoRenew, status: status ?? stored.status, expiresAt: nil, asOf: asOf, source: source)
        guard try await tx.updateFacts(otid, facts) else {
            tx.audit(.subscriptionFactsIgnored, target: .originalTransaction(otid), .olderFacts(notification: nil))
            return false
        }
        tx.audit(
            .subscriptionRenewalStatus, target: .originalTransaction(otid),
            .facts(status: facts.status, autoRenew: facts.autoRenew, source: source, signedAt: nil, notification: nil))
        return true
    }

    /// Operator actions need a role that may act and a reason for the audit log.
    func requireOperator(_ actor: Operator, may action: OperatorAct, reason: String, minimum: Role = .support) throws {
        if isReplica { throw StoreError.onReplica(action: action) }
        guard actor.role >= minimum, actor.role.mayAct else { throw StoreError.forbidden(action: action, role: actor.role) }
        guard !reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw StoreError.reasonRequired(action: action) }
    }
}

extension Subscriptions {
    /// An operator moves a subscription to another account, with a reason (R8).
    /// A renewal disputed under it is settled by the move: the new owner's order is
    /// delivered, anyone else's rejected, and their review items closed.
    public func transfer(originalTransactionId otid: String, to account: String, by actor: Operator, reason: String, at now: Millis = .now())
        async throws
    {
        try store.requireOperator(actor, may: .transferSubscription, reason: reason)
        try await store.write(as: actor, now: now) { tx in
            guard let subscription = try await tx.subscriptionRow(otid) else { throw StoreError.notFound(kind: .subscription, id: otid) }
            let disputed = try await tx.disputedOrders(otid)
            guard subscription.ownerAccount != account || !disputed.isEmpty else {
                throw StoreError.alreadyOwner(accountId: account, originalTransactionId: otid)
            }
            if subscription.ownerAccount != account {
                try await store.transfer(tx, otid: otid, from: subscription.ownerAccount, to: account, orderId: nil, reason: reason)
            }
            for order in disputed {
                try await store.settleDisputed(tx, order, favor: order.accountId == account ? .submitter : .owner, reason: "transfer to \(account): \(reason)")
            }
            try await tx.refreshExpiry(otid)
        }
    }

    /// Settles a disputed order (R8): either the rule's verdict stands (the order is
    /// rejected; the renewal stays with the owner), or the submitter gets the subscription
    /// and the order is delivered. Either way the decision leaves the review list.
    public func resolve(orderId: String, expectedVersion: Int64, favor: Favor, by actor: Operator, reason: String, at now: Millis = .now())
        async throws -> Order
    {
        try store.requireOperator(actor, may: .resolveDisputes, reason: reason)
        return try await store.write(as: actor, now: now) { tx in
            let order = try await tx.requireOrder(orderId)
            guard order.version == expectedVersion else { throw try await tx.conflict(orderId: orderId) }
            guard order.state == .disputed, let otid = order.originalTransactionId else {
                throw StoreError.notDisputed(orderId: orderId, state: order.state)
            }
            if favor == .submitter, let owner = try await tx.subscriptionRow(otid)?.ownerAccount, owner != order.accountId {
                try await store.transfer(tx, otid: otid, from: owner, to: order.accountId, orderId: orderId, reason: reason)
            }
            let settled = try await store.settleDisputed(tx, order, favor: favor, reason: reason)
            try await tx.refreshExpiry(otid)
            return settled
        }
    }

    /// Apple told us (a notification, or renewal info) whether a subscription still renews,
    /// and where it stands, as of `asOf` (the notification's `signedDate`). Facts older
    /// than those stored change nothing.
    public func recordRenewalStatus(
        originalTransactionId otid: String, autoRenew: Bool, status: SubscriptionStatus? = nil,
        asOf: Millis? = nil, source: FactSource = .notification, at now: Millis = .now()
    ) async throws {
        try await store.write(as: .system, now: now) { tx in
            guard let stored = try await tx.subscriptionRow(otid) else { throw StoreError.notFound(kind: .subscription, id: otid) }
            try await store.applyRenewalStatus(tx, stored, autoRenew: autoRenew, status: status, asOf: asOf ?? now, source: source)
        }
    }
}
