import OrderDomain
import SQLKit

/// What telling Apple a purchase is finished came to.
public enum FinishOutcome: Sendable, Equatable {
    /// Apple took it now.
    case finished(at: Millis)
    /// Told before: Apple is told once.
    case alreadyFinished(at: Millis)
    /// Nothing to tell: no delivered order claims the purchase (refunded or revoked since).
    case notDelivered
    /// Apple refused or could not be reached: the worker tries again on its schedule.
    case failed(String)
}

extension AppleAnswers {
    /// Finish Transaction: tells Apple that a delivered purchase is finished (the game was
    /// given what it paid for), once. `tell` makes the call in the purchase's environment and
    /// returns nil when Apple took it, else why not. The instant Apple took it is kept on the
    /// transaction and audited; the order's page shows it.
    public func finish(transactionId: String, at now: Millis = .now(), tell: @Sendable (_ transactionId: String, AppleEnvironment) async -> String?)
        async throws -> FinishOutcome
    {
        let owed = try await store.read { sql -> (environment: AppleEnvironment, finishedAt: Millis?)? in
            guard
                let row = try await sql.row(
                    """
                    SELECT t.environment, t.finished_at FROM transactions t JOIN orders o ON o.order_id = t.order_id
                    WHERE t.transaction_id = \(bind: transactionId) AND o.state = 'delivered'
                    """)
            else { return nil }
            return (try row.optionalValue("environment", as: AppleEnvironment.self) ?? .production, try row.optionalInt64("finished_at"))
        }
        guard let owed else { return .notDelivered }
        if let finishedAt = owed.finishedAt { return .alreadyFinished(at: finishedAt) }
        if let refusal = await tell(transactionId, owed.environment) { return .failed(refusal) }
        return try await store.write(as: .system, now: now) { tx in
            let told = try await tx.sql.row(
                """
                UPDATE transactions SET finished_at = \(bind: tx.now) WHERE transaction_id = \(bind: transactionId) AND finished_at IS NULL
                RETURNING finished_at
                """)
            guard told != nil else {
                let earlier = try await tx.storedTransaction(transactionId)?.finishedAt
                return .alreadyFinished(at: earlier ?? tx.now)
            }
            tx.audit(.appleFinished, target: .transaction(transactionId), .appleFinished)
            return .finished(at: tx.now)
        }
    }
}
