import Foundation
import SQLKit

/// One call to Apple per order at a time, across processes: an operator's re-verification
/// (console `r`/`R`, `order reverify`, `stuck reverify`) first takes the order's verify job
/// under a lease, as a worker does. Two bulk runs at once, or a run beside a worker, then
/// split the orders instead of asking Apple twice about each.
extension OrderStore {
    /// Takes the order's verify job (made if none is owed) until `now + lease`. Returns
    /// nil when taken, else who holds it.
    func claimVerification(orderId: String, owner: String, lease: Millis = .seconds(120), now: Millis = .now()) async throws -> String? {
        try await write(as: .system, now: now) { tx in
            let taken = try await tx.sql.row(
                """
                INSERT INTO jobs (kind, subject, due_at, created_at, lease_owner, lease_until)
                VALUES (\(bind: JobKind.verify.rawValue), \(bind: orderId), \(bind: now), \(bind: now), \(bind: owner), \(bind: now + lease))
                ON CONFLICT (kind, subject) DO UPDATE SET lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
                  WHERE jobs.lease_until IS NULL OR jobs.lease_until < \(bind: now)
                RETURNING id
                """)
            if taken != nil { return nil }
            let holder = try await tx.sql.row(
                """
                SELECT lease_owner FROM jobs WHERE kind = \(bind: JobKind.verify.rawValue) AND subject = \(bind: orderId)
                """)
            return try holder?.optionalString("lease_owner") ?? "another process"
        }
    }

    /// Gives the job back after a call that recorded nothing (it failed before Apple's
    /// answer was stored): the job stays as it was, so no owed verification is lost.
    func releaseUnansweredVerification(orderId: String, owner: String) async throws {
        try await write(as: .system) { tx in
            try await tx.sql.raw("UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE \(Self.claimKey(orderId, owner))").run()
        }
    }

    /// Gives the job back inside the transaction that recorded Apple's answer (one commit
    /// for both, and no moment where the answer is stored and the claim still held): owed
    /// again only if that answer asked for a retry (`again_at`); otherwise it goes.
    static func releaseAnswered(_ tx: WriteTransaction, orderId: String, owner: String) async throws {
        _ = try await tx.finishLeasedJob(claimKey(orderId, owner))
    }

    private static func claimKey(_ orderId: String, _ owner: String) -> SQLQueryString {
        "kind = \(bind: JobKind.verify.rawValue) AND subject = \(bind: orderId) AND lease_owner = \(bind: owner)"
    }
}
