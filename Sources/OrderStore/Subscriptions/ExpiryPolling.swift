import OrderDomain
import SQLKit

/// Seed 003: "服务端定时轮询收据验证接口,将快要到期的收据拿去验证" — the server polls Apple
/// about subscriptions whose period is about to end, so a renewal, an expiry or a refund
/// reaches the store even when no notification came.
public struct ExpiryPolling: Sendable, Equatable {
    /// Subscriptions whose period ends within this much from now are polled…
    public var ahead: Millis = .hours(24)
    /// …and those that ended up to this long ago (a late renewal, a billing retry).
    public var behind: Millis = .hours(72)
    /// A subscription Apple told us about more recently than this is not polled again.
    public var recheckAfter: Millis = .hours(6)
    /// Checks enqueued per sweep; a full sweep comes back sooner.
    public var perSweep = 1_000

    public init() {}
}

extension Subscriptions {
    /// The sweep: owes a `subscriptionCheck` job to each subscription whose period ends
    /// near `now` and whose facts are older than `recheckAfter`, unless one is owed or
    /// running already. A range of the expiry index; refunded and revoked subscriptions
    /// end there. Returns how many were owed.
    public func scheduleExpiryChecks(_ polling: ExpiryPolling, now: Millis = .now()) async throws -> Int {
        try await store.write(as: .system, now: now) { tx in
            let due = try await tx.sql.rows(
                """
                SELECT original_transaction_id FROM subscriptions s
                WHERE expires_at IS NOT NULL AND expires_at BETWEEN \(bind: now - polling.behind) AND \(bind: now + polling.ahead)
                  AND status NOT IN ('refunded', 'revoked')
                  AND COALESCE(facts_as_of, updated_at) < \(bind: now - polling.recheckAfter)
                  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = \(bind: JobKind.subscriptionCheck.rawValue)
                                    AND j.subject = s.original_transaction_id)
                ORDER BY expires_at, original_transaction_id LIMIT \(literal: polling.perSweep)
                """
            ).map { try $0.string("original_transaction_id") }
            for otid in due { try await tx.enqueue(.subscriptionCheck(originalTransactionId: otid), dueAt: now) }
            return due.count
        }
    }

    /// One subscription's check: its newest delivered order's receipt goes to Apple again,
    /// and the answer refreshes the subscription's facts (R8) and catches a refund (R9)
    /// as any re-verification does. Nil when no delivered order holds a receipt for it
    /// (it was learned from notifications alone).
    public func check(_ otid: String, using verifier: any ReceiptVerifier) async throws -> VerificationOutcome? {
        let orderId = try await store.read { sql in
            try await sql.row(
                """
                SELECT order_id FROM orders
                WHERE original_transaction_id = \(bind: otid) AND state = 'delivered'
                  AND EXISTS (SELECT 1 FROM receipt_submissions s WHERE s.order_id = orders.order_id)
                ORDER BY created_at DESC LIMIT 1
                """)?.string("order_id")
        }
        guard let orderId else { return nil }
        return try await store.apple.reverify(orderId: orderId, using: verifier)
    }
}
