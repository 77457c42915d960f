import Foundation
import OrderDomain
import SQLKit

/// One call to Apple per order at a time, across processes: an operator's re-verification
/// (console `r`/`R`, `order reverify`, `stuck reverify`) first takes the order's verify job
/// under a lease, as a worker does. Two bulk runs at once, or a run beside a worker, then
/// split the orders instead of asking Apple twice about each.
/// What taking an order's verify job came to.
enum VerificationClaim: Equatable {
    /// Ours until the lease ends. `made`: no verification was owed, the job was made for
    /// this call, and it goes again if the call records nothing.
    case taken(made: Bool)
    /// Another process holds it (its lease owner).
    case heldBy(String)
}

extension OrderStore {
    /// Takes the order's verify job (made if none is owed) until `now + lease`.
    func claimVerification(orderId: String, owner: String, lease: Millis = .seconds(120), now: Millis = .now()) async throws
        -> VerificationClaim
    {
        // Whether this claim made the job is the insert's own answer on PostgreSQL (a row an
        // INSERT wrote has xmax 0, one it updated has not). Read beforehand it can be wrong
        // there: under READ COMMITTED another run's finish may delete the job between that
        // read and this insert, which then makes a new one it would take for owed, and leave
        // owed when it gives the claim back. SQLite writes one transaction at a time, so what
        // it read before still holds.
        let postgres = db.dialect == .postgres
        return try await write(as: .system, now: now) { tx in
            let owed = postgres ? nil : try await tx.sql.row("SELECT id FROM jobs WHERE kind = \(bind: JobKind.verify.rawValue) AND subject = \(bind: orderId)")
            let made: SQLQueryString = postgres ? ", CASE WHEN xmax = 0 THEN 1 ELSE 0 END AS made" : ""
            let taken = try await tx.sql.row(
                """
                INSERT INTO jobs (kind, subject, due_at, created_at, lease_owner, lease_until)
                VALUES (\(bind: JobKind.verify.rawValue), \(bind: orderId), \(bind: now), \(bind: now), \(bind: owner), \(bind: now + lease))
                ON CONFLICT (kind, subject) DO UPDATE SET lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
                  WHERE jobs.lease_until IS NULL OR jobs.lease_until < \(bind: now)
                RETURNING id\(made)
                """)
            if let taken { return .taken(made: postgres ? try taken.bool("made") : owed == nil) }
            let holder = try await tx.sql.row(
                """
                SELECT lease_owner FROM jobs WHERE kind = \(bind: JobKind.verify.rawValue) AND subject = \(bind: orderId)
                """)
            return .heldBy(try holder?.optionalString("lease_owner") ?? "another process")
        }
    }

    /// Gives the job back after a call that recorded nothing (it failed before Apple's
    /// answer was stored, or another run had asked since): the job is as it was before the
    /// claim, so no owed verification is lost and none is made up (`made`: it was not owed).
    func releaseUnansweredVerification(orderId: String, owner: String, made: Bool) async throws {
        try await write(as: .system) { tx in
            if made {
                try await tx.sql.raw("DELETE FROM jobs WHERE \(Self.claimKey(orderId, owner))").run()
            } else {
                try await tx.sql.raw("UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE \(Self.claimKey(orderId, owner))").run()
            }
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
