import Foundation
import SQLKit

/// One extension of a subscription's renewal date an operator asked of Apple.
public struct SubscriptionExtension: Sendable, Equatable {
    public var id: Int64
    public var originalTransactionId: String
    public var days: Int
    /// Apple's `extendReasonCode`: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var reasonCode: Int
    /// Apple's `requestIdentifier`: asking again with it cannot extend twice.
    public var requestId: String
    public var operatorName: String
    public var reason: String
    public var claimedAt: Millis
    public var outcome: AppleActionOutcome
    public var answeredAt: Millis?
    /// The subscription's end Apple answered with.
    public var newExpiry: Millis?
    public var appleError: String?
}

/// Apple's eligibility rules for Extend a Subscription Renewal Date, checked before Apple is
/// asked (apple-and-peers-2026: at most 90 days, at most two extensions in 365 days, an
/// active subscription). Apple checks again, with what iapdesk cannot see (a free offer).
public enum ExtensionRule {
    public static let maxDays = 90
    public static let maxPerYear = 2
    /// Apple's `extendReasonCode`s in words.
    public static let reasonCodes = [0: "undeclared", 1: "customer satisfaction", 2: "other", 3: "service issue or outage"]

    /// Why Apple would refuse; nil when it may be asked.
    public static func refusal(_ subscription: Subscription, days: Int, sentInLastYear: Int, now: Millis) -> String? {
        guard (1...maxDays).contains(days) else { return "Apple extends by 1 to \(maxDays) days, not \(days)" }
        guard subscription.status == .active || subscription.status == .gracePeriod else {
            return "it is \(subscription.status.rawValue); Apple extends only an active subscription"
        }
        guard (subscription.expiresAt ?? .max) > now else { return "its period ended \(subscription.expiresAt?.iso8601 ?? "")" }
        guard sentInLastYear < maxPerYear else { return "it was extended \(sentInLastYear) times in the last 365 days; Apple allows \(maxPerYear)" }
        return nil
    }
}

/// What Apple said to an extension: the new end, or its refusal in words.
public struct ExtensionAnswer: Sendable {
    public var newExpiry: Millis?
    public var refusal: String?

    public init(newExpiry: Millis?, refusal: String?) {
        self.newExpiry = newExpiry
        self.refusal = refusal
    }
}

extension OrderStore {
    /// What Apple lets a studio give a subscriber: more days on one subscription, or on
    /// every active subscriber of a product, within Apple's rules, each sent once.
    public var extensions: Extensions { Extensions(store: self) }
}

/// Subscription extensions of one store (``OrderStore/extensions``).
public struct Extensions: Sendable {
    let store: OrderStore

    /// The extensions asked for a subscription, oldest first.
    public func of(originalTransactionId otid: String) async throws -> [SubscriptionExtension] {
        try await store.read { sql in
            try await sql.rows("SELECT * FROM subscription_extensions WHERE original_transaction_id = \(bind: otid) ORDER BY id")
                .map(SubscriptionExtension.init(row:))
        }
    }

    /// Extends a subscription's renewal date with Apple (admins only, audited): Apple's
    /// rules are checked first (`ExtensionRule`), the request is claimed in the store (one
    /// in flight per subscription), Apple is called outside any transaction through `send`
    /// with a request id of its own, and what Apple said is recorded. On success the
    /// subscription ends at Apple's new date and the game is told (a renewal event).
    public func extend(
        originalTransactionId otid: String, days: Int, reasonCode: Int, by actor: Operator, reason: String, at now: Millis = .now(),
        send: @Sendable (_ originalTransactionId: String, _ days: Int, _ reasonCode: Int, _ requestId: String, AppleEnvironment) async -> ExtensionAnswer
    ) async throws -> SubscriptionExtension {
        try store.requireOperator(actor, may: "extend subscriptions", reason: reason, minimum: .admin)
        guard (0...3).contains(reasonCode) else { throw StoreError.invalid(.extensionReasonCode(reasonCode)) }
        let requestId = UUID().uuidString.lowercased()
        let yearAgo: Millis = now - .hours(365 * 24)
        let (claimId, environment): (Int64, AppleEnvironment) = try await store.write(as: actor, now: now) { tx in
            guard let subscription = try await tx.subscriptionRow(otid) else { throw StoreError.notFound(kind: .subscription, id: otid) }
            try await tx.sql.raw(
                """
                UPDATE subscription_extensions SET outcome = 'abandoned'
                WHERE original_transaction_id = \(bind: otid) AND outcome = 'sending' AND claimed_at < \(bind: now - OrderStore.appleActionClaimLifetime)
                """
            ).run()
            let recent =
                try await tx.sql.row(
                    """
                    SELECT COUNT(*) AS n FROM subscription_extensions
                    WHERE original_transaction_id = \(bind: otid) AND outcome IN ('sent', 'sending') AND claimed_at > \(bind: yearAgo)
                    """)?.int("n") ?? 0
            if let why = ExtensionRule.refusal(subscription, days: days, sentInLastYear: recent, now: now) {
                throw AppleActionError.extensionRefused(originalTransactionId: otid, why: why)
            }
            let claimed = try await tx.sql.row(
                """
                INSERT INTO subscription_extensions (original_transaction_id, days, reason_code, request_id, operator, reason, claimed_at, outcome)
                VALUES (\(bind: otid), \(bind: days), \(bind: reasonCode), \(bind: requestId), \(bind: actor.name), \(bind: reason), \(bind: now), 'sending')
                ON CONFLICT (original_transaction_id) WHERE outcome = 'sending' DO NOTHING RETURNING id
                """)
            guard let id = try claimed?.int64("id") else {
                throw AppleActionError.extensionRefused(originalTransactionId: otid, why: "another extension of it is being sent to Apple right now")
            }
            return (id, try await tx.storedTransaction(otid)?.environment ?? .production)
        }
        let app = try await store.app(ofTransaction: otid)
        let answer = await store.asApp(app) { await send(otid, days, reasonCode, requestId, environment) }
        return try await store.write(as: actor, now: .now()) { tx in
            try await tx.sql.raw(
                """
                UPDATE subscription_extensions SET outcome = \(bind: (answer.refusal == nil ? AppleActionOutcome.sent : .failed).rawValue),
                  answered_at = \(bind: tx.now), new_expiry = \(bind: answer.newExpiry), apple_error = \(bind: answer.refusal)
                WHERE id = \(bind: claimId)
                """
            ).run()
            if answer.refusal == nil, let end = answer.newExpiry { try await tx.extendExpiry(otid, to: end) }
            tx.audit(
                answer.refusal == nil ? .subscriptionExtend : .subscriptionExtendRefused, target: .originalTransaction(otid), reason: reason,
                detail: "\(days) days (reason code \(reasonCode), request \(requestId))"
                    + (answer.newExpiry.map { ": now ends \($0.iso8601)" } ?? "") + (answer.refusal.map { "; Apple: \($0)" } ?? ""))
            guard let row = try await tx.sql.row("SELECT * FROM subscription_extensions WHERE id = \(bind: claimId)") else {
                throw StoreError.notFound(kind: .subscriptionExtension, id: "\(claimId)")
            }
            return try SubscriptionExtension(row: row)
        }
    }
}

extension WriteTransaction {
    /// Apple moved the subscription's end later (an extension): the game hears of it as a renewal.
    func extendExpiry(_ otid: String, to end: Millis) async throws {
        try await willChangeSubscription(otid)
        try await sql.raw(
            """
            UPDATE subscriptions SET expires_at = \(bind: end), updated_at = \(bind: now)
            WHERE original_transaction_id = \(bind: otid) AND COALESCE(expires_at, 0) < \(bind: end)
            """
        ).run()
    }
}

extension SubscriptionExtension {
    init(row: Row) throws {
        id = try row.int64("id")
        originalTransactionId = try row.string("original_transaction_id")
        days = try row.int("days")
        reasonCode = try row.int("reason_code")
        requestId = try row.string("request_id")
        operatorName = try row.string("operator")
        reason = try row.string("reason")
        claimedAt = try row.int64("claimed_at")
        outcome = try row.value("outcome", as: AppleActionOutcome.self)
        answeredAt = try row.optionalInt64("answered_at")
        newExpiry = try row.optionalInt64("new_expiry")
        appleError = try row.optionalString("apple_error")
    }
}
