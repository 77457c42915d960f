import OrderDomain
import SQLKit

/// The subscriptions table (one row per original transaction id) and its ownership history.
extension WriteTransaction {
    func subscriptionRow(_ otid: String) async throws -> Subscription? {
        try await sql.row("SELECT \(unsafeRaw: Subscription.Column.list) FROM subscriptions WHERE original_transaction_id = \(bind: otid)").map(
            Subscription.init(row:))
    }

    /// A new subscription row: with its first owner (R8), or with none when Apple's
    /// notifications about it arrive before any order holds it.
    func insertSubscription(_ otid: String, in marketplace: Marketplace, owner: String?, productId: String, facts: SubscriptionFacts) async throws {
        try await willChangeSubscription(otid)
        try await sql.raw(
            """
            INSERT INTO subscriptions (original_transaction_id, owner_account, product_id, status, auto_renew, expires_at,
              owner_since, decided_by, updated_at, facts_as_of, facts_source, marketplace)
            VALUES (\(bind: otid), \(bind: owner), \(bind: productId), \(bind: facts.status.rawValue), \(bind: facts.autoRenew ? 1 : 0),
                    \(bind: facts.expiresAt), \(bind: now), \(bind: (owner == nil ? Decider.apple : .rule).stored), \(bind: now), \(bind: facts.asOf), \(bind: facts.source.rawValue),
                    \(bind: marketplace.rawValue))
            """
        ).run()
        if let renewal = facts.renewal { try await setRenewal(otid, renewal) }
    }

    private func setRenewal(_ otid: String, _ r: RenewalFacts) async throws {
        try await sql.raw(
            """
            UPDATE subscriptions SET renews_to = \(bind: r.renewsTo), grace_until = \(bind: r.graceUntil), billing_retry = \(bind: r.billingRetry ? 1 : 0),
              price_increase = \(bind: r.priceIncrease), billing_plan = \(bind: r.billingPlan),
              commitment_renews = \(bind: r.commitment?.renews.map { $0 ? 1 : 0 }), commitment_renews_at = \(bind: r.commitment?.renewsAt),
              commitment_renews_to = \(bind: r.commitment?.renewsTo),
              win_back_offers = \(bind: r.winBackOffers.isEmpty ? nil : r.winBackOffers.joined(separator: " "))
            WHERE original_transaction_id = \(bind: otid)
            """
        ).run()
    }

    /// Writes Apple's newer facts; facts older than those stored change nothing (a
    /// notification recovered late never overwrites what a later answer said).
    @discardableResult
    func updateFacts(_ otid: String, productId: String? = nil, _ facts: SubscriptionFacts) async throws -> Bool {
        try await willChangeSubscription(otid)
        let applied =
            try await sql.row(
                """
                UPDATE subscriptions SET status = \(bind: facts.status.rawValue), auto_renew = \(bind: facts.autoRenew ? 1 : 0),
                  expires_at = COALESCE(\(bind: facts.expiresAt), expires_at), product_id = COALESCE(\(bind: productId), product_id),
                  facts_as_of = \(bind: facts.asOf), facts_source = \(bind: facts.source.rawValue), updated_at = \(bind: now)
                WHERE original_transaction_id = \(bind: otid) AND COALESCE(facts_as_of, 0) <= \(bind: facts.asOf)
                RETURNING original_transaction_id
                """) != nil
        if applied, let renewal = facts.renewal { try await setRenewal(otid, renewal) }
        return applied
    }

    /// A new owner starts a new tenure.
    func setOwner(_ otid: String, to account: String, decidedBy: Decider) async throws {
        try await willChangeSubscription(otid)
        try await sql.raw(
            """
            UPDATE subscriptions SET owner_account = \(bind: account), owner_since = \(bind: now), decided_by = \(bind: decidedBy.stored),
              updated_at = \(bind: now)
            WHERE original_transaction_id = \(bind: otid) AND (owner_account IS NULL OR owner_account <> \(bind: account))
            """
        ).run()
    }

    /// The subscription's end as its stored periods show it.
    func refreshExpiry(_ otid: String) async throws {
        try await willChangeSubscription(otid)
        try await sql.raw(
            """
            UPDATE subscriptions SET expires_at = (SELECT MAX(expires_date) FROM transactions WHERE original_transaction_id = \(bind: otid)),
              updated_at = \(bind: now)
            WHERE original_transaction_id = \(bind: otid)
            """
        ).run()
    }

    func recordOwnershipEvent(
        _ otid: String, orderId: String?, submittedBy: String, from: String?, to: String,
        verdict: OwnershipVerdict, reason: String = "", decision: OwnershipRule.Decision? = nil, needsReview: Bool
    ) async throws {
        try await sql.raw(
            """
            INSERT INTO ownership_events (original_transaction_id, order_id, submitted_by, from_account, to_account, at,
              decided_by, verdict, reason, decision, needs_review)
            VALUES (\(bind: otid), \(bind: orderId), \(bind: submittedBy), \(bind: from), \(bind: to), \(bind: now),
                    \(bind: Decider(actor).stored), \(bind: verdict.rawValue), \(bind: reason), \(bind: try decision?.json()),
                    \(bind: needsReview ? 1 : 0))
            """
        ).run()
    }

    /// Settling a disputed order takes its R8 decision off the review list.
    func closeReview(orderId: String) async throws {
        try await sql.raw("UPDATE ownership_events SET needs_review = 0 WHERE order_id = \(bind: orderId) AND needs_review = 1").run()
    }

    func disputedOrders(_ otid: String) async throws -> [Order] {
        try await sql.rows(
            """
            SELECT \(unsafeRaw: Order.Column.list) FROM orders WHERE original_transaction_id = \(bind: otid) AND state = 'disputed' ORDER BY order_id
            """
        ).map(Order.init(row:))
    }
}
