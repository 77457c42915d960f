import Foundation
import OrderDomain
import SQLKit

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
            try await sql.rows(
                "SELECT \(unsafeRaw: SubscriptionExtension.Column.list) FROM subscription_extensions WHERE original_transaction_id = \(bind: otid) ORDER BY id"
            )
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
        try store.requireOperator(actor, may: .extendSubscriptions, reason: reason, minimum: .admin)
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
            if let refusal = ExtensionRule.refusal(subscription, days: days, sentInLastYear: recent, now: now) {
                throw AppleActionError.extensionRefused(originalTransactionId: otid, refusal)
            }
            let claimed = try await tx.sql.row(
                """
                INSERT INTO subscription_extensions (original_transaction_id, days, reason_code, request_id, operator, reason, claimed_at, outcome)
                VALUES (\(bind: otid), \(bind: days), \(bind: reasonCode), \(bind: requestId), \(bind: actor.name), \(bind: reason), \(bind: now), 'sending')
                ON CONFLICT (original_transaction_id) WHERE outcome = 'sending' DO NOTHING RETURNING id
                """)
            guard let id = try claimed?.int64("id") else {
                throw AppleActionError.extensionRefused(originalTransactionId: otid, .anotherBeingSent)
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
                .extended(days: days, reasonCode: reasonCode, requestId: requestId, environment: nil, newEnd: answer.newExpiry, appleSaid: answer.refusal))
            guard
                let row = try await tx.sql.row(
                    "SELECT \(unsafeRaw: SubscriptionExtension.Column.list) FROM subscription_extensions WHERE id = \(bind: claimId)")
            else {
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

extension SubscriptionExtension: StoredRecord {
    enum Column: String, TableColumn {
        case id, originalTransactionId = "original_transaction_id", days, reasonCode = "reason_code", requestId = "request_id", `operator`, reason,
            claimedAt = "claimed_at", outcome, answeredAt = "answered_at", newExpiry = "new_expiry", appleError = "apple_error"
    }

    init(_ row: Columns<Column>) throws {
        let id = try row.int64(.id)
        let originalTransactionId = try row.string(.originalTransactionId)
        let days = try row.int(.days)
        let reasonCode = try row.int(.reasonCode)
        let requestId = try row.string(.requestId)
        let operatorName = try row.string(.operator)
        let reason = try row.string(.reason)
        let claimedAt = try row.int64(.claimedAt)
        let outcome = try row.value(.outcome, as: AppleActionOutcome.self)
        let answeredAt = try row.optionalInt64(.answeredAt)
        let newExpiry = try row.optionalInt64(.newExpiry)
        let appleError = try row.optionalString(.appleError)
        self.init(
            id: id, originalTransactionId: originalTransactionId, days: days, reasonCode: reasonCode, requestId: requestId, operatorName: operatorName,
            reason: reason, claimedAt: claimedAt, outcome: outcome, answeredAt: answeredAt, newExpiry: newExpiry, appleError: appleError)
    }
}
