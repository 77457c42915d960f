import OrderDomain
import SQLKit

/// A client's `Idempotency-Key` for one request: the same key with the same request gets
/// the first answer again, never a second submission; the same key with another request
/// is refused.
public struct IdempotencyKey: Sendable, Equatable {
    /// Who sent it (the game server's token name): keys are per client.
    public var client: String
    public var key: String
    /// A digest of the request the key was first used with.
    public var requestHash: String

    public init(client: String, key: String, requestHash: String) {
        self.client = client
        self.key = key
        self.requestHash = requestHash
    }
}

extension WriteTransaction {
    /// The submission a key already produced, or nil if the key is new.
    func replayedSubmission(_ idempotency: IdempotencyKey) async throws -> Int64? {
        guard
            let row = try await sql.row(
                """
                SELECT request_hash, body FROM idempotency_keys WHERE client = \(bind: idempotency.client) AND key = \(bind: idempotency.key)
                """)
        else { return nil }
        guard try row.string("request_hash") == idempotency.requestHash else { throw StoreError.idempotencyMismatch(key: idempotency.key) }
        guard let id = Int64(try row.string("body")) else { throw StoreError.corrupt("idempotency key \(idempotency.key) holds no submission id") }
        return id
    }

    func remember(_ idempotency: IdempotencyKey, submission id: Int64) async throws {
        try await sql.raw(
            """
            INSERT INTO idempotency_keys (client, key, request_hash, status, body, at)
            VALUES (\(bind: idempotency.client), \(bind: idempotency.key), \(bind: idempotency.requestHash), 202, \(bind: String(id)), \(bind: now))
            """
        ).run()
    }
}
