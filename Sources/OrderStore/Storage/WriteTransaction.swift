import OrderDomain
import SQLKit

/// The context of one write transaction: who acts, when, and what it still has to flush
/// at commit (owed jobs, state counters, audit entries).
final class WriteTransaction {
    /// The transaction's connection; its statements PostgreSQL prepares go through it.
    let database: Database
    var sql: any SQLDatabase { database.sql }
    let actor: Operator
    let now: Millis
    private var countDeltas: [OrderState: Int64] = [:]
    private var audits: [PendingAudit] = []
    /// Subscriptions changed in this transaction, as they were before (for the game's events).
    var subscriptionsBefore: [String: Subscription?] = [:]
    /// Subscriptions whose order's event already told the game of this change.
    var subscriptionsTold: Set<String> = []
    /// A job due by now was enqueued: the store wakes its idle workers after the commit.
    var madeJobDue = false
    /// Other processes' workers will hear of it at the commit (PostgreSQL): once is enough,
    /// whichever job it was for, since a woken worker claims every due job.
    var toldJobsDue = false
    /// Orders a batch read in one statement before its items (``prefetchOrders(_:holdingWrites:)``), each
    /// handed out once, to the first `requireOrder` of it.
    var prefetched: [String: Order] = [:]
    /// Jobs owed at commit (``enqueueAtCommit(_:dueAt:)``), each by the soonest time asked.
    var owedJobs: [JobWork: Millis] = [:]
    /// A group commit's submissions and saves held for the commit (``prefetchOrders(_:holdingWrites:)``).
    var held: HeldWrites?
    /// A batch tried item by item, each in a savepoint (``OrderStore/writeBatch``): nothing is held then.
    var isolating = false
    /// Signs the audit entries when the store's log is keyed (R10 anchored).
    let auditKey: AuditKey?
    /// An admin's `audit anchor`: the head may be signed afresh (`AuditHead.signer`).
    var anchoring = false

    init(database: Database, actor: Operator, now: Millis, auditKey: AuditKey?) {
        self.database = database
        self.actor = actor
        self.now = now
        self.auditKey = auditKey
    }

    struct PendingAudit {
        var actor: Operator
        var action: AuditAction
        var target: AuditTarget
        var reason: String?
        var detail = AuditDetail()
        /// The grant rows this entry records (a delivery's one), chained with it.
        var grants: ClosedRange<Int64>?
        /// The decision's reason and particulars, as JSON, when a rule decided.
        var why: String? = nil
    }

    /// R10: every operator action and automatic state change is recorded.
    func audit(
        _ action: AuditAction, target: AuditTarget, reason: String? = nil, _ fact: AuditDetail.Fact? = nil, as who: Operator? = nil,
        grants: ClosedRange<Int64>? = nil
    ) {
        audits.append(PendingAudit(actor: who ?? actor, action: action, target: target, reason: reason, detail: AuditDetail(fact), grants: grants))
    }

    /// Records a rule's decision about `target`, its reason and particulars kept as facts.
    func audit(_ action: AuditAction, target: AuditTarget, because why: Why) throws {
        audits.append(PendingAudit(actor: actor, action: action, target: target, reason: nil, why: try why.json()))
    }

    func countNew(_ state: OrderState) {
        countDeltas[state, default: 0] += 1
    }

    /// Writes a changed order: checks the transition, bumps the version only if nobody
    /// changed the order since `previous` was read, keeps counters, and audits a state change
    /// (naming `grant`, the grant row a delivery wrote, in its entry).
    @discardableResult
    func save(
        _ order: Order, previous: Order, action: AuditAction, reason: String? = nil, because why: Why? = nil, _ fact: AuditDetail.Fact? = nil,
        grant: Int64? = nil
    ) async throws -> Order {
        var next = order
        if next.state != previous.state {
            guard previous.state.canMove(to: next.state) else {
                throw StoreError.illegalTransition(orderId: order.orderId, from: previous.state, to: next.state)
            }
            next.stateChangedAt = now
        }
        if next.state.isPaidUndelivered {
            next.stuckSince = previous.state.isPaidUndelivered ? (previous.stuckSince ?? now) : now
        } else {
            next.stuckSince = nil
            // Only a hand delivery Apple has not confirmed yet keeps its R4 schedule.
            if !next.isUnconfirmedDelivery { next.nextRetryAt = nil }
        }
        next.updatedBy = actor.name
        // A delivery that names its purchase owes its store a word, told by the worker once
        // this commits: Apple's Finish Transaction, Google Play's acknowledgement.
        if next.state == .delivered, let transactionId = next.transactionId, previous.state != .delivered || previous.transactionId == nil {
            if next.marketplace == .googlePlay {
                if let token = try await storedTransaction(transactionId)?.transaction.purchaseToken {
                    try await enqueue(.playAcknowledge(purchaseToken: token), dueAt: now)
                }
            } else {
                try await enqueue(.finishTransaction(transactionId: transactionId), dueAt: now)
            }
        }
        // The store and app change once, when a Google Play purchase pays an order: written
        // then only, so no other save can put back what an older copy of the order said.
        let paidElsewhere = next.marketplace != previous.marketplace || next.app != previous.app
        guard
            let version = try await writeSave(try OrderSave(next, paidElsewhere: paidElsewhere, previousVersion: previous.version))
        else {
            throw try await conflict(orderId: order.orderId)
        }
        next.version = version
        // An order on a retry schedule is owed a verification then: the worker's job says so.
        if let due = next.nextRetryAt, due != previous.nextRetryAt {
            try await enqueue(.verify(orderId: next.orderId), dueAt: due)
        }
        var entry = PendingAudit(actor: actor, action: action, target: .order(order.orderId), reason: reason, detail: AuditDetail(fact), why: try why?.json())
        if next.state != previous.state {
            countDeltas[previous.state, default: 0] -= 1
            countDeltas[next.state, default: 0] += 1
            entry.detail.move = AuditDetail.Move(from: previous.state, to: next.state)
            entry.grants = grant.map { $0...$0 }
        }
        audits.append(entry)
        return next
    }

    /// Runs `body` inside a savepoint: when it throws, only its own writes, counters and
    /// audit entries are undone and the transaction goes on — one bad item in a group
    /// commit does not fail its neighbours. A failure of the savepoint itself throws.
    func isolated<T>(_ body: () async throws -> T) async throws -> Result<T, any Error> {
        let (deltasBefore, auditsBefore, subscriptionsAsWere, toldAsWere) = (countDeltas, audits.count, subscriptionsBefore, subscriptionsTold)
        let owedBefore = owedJobs
        try await sql.raw("SAVEPOINT item").run()
        do {
            let value = try await body()
            try await sql.raw("RELEASE SAVEPOINT item").run()
            return .success(value)
        } catch {
            try await sql.raw("ROLLBACK TO SAVEPOINT item").run()
            try await sql.raw("RELEASE SAVEPOINT item").run()
            countDeltas = deltasBefore
            audits.removeLast(audits.count - auditsBefore)
            owedJobs = owedBefore
            (subscriptionsBefore, subscriptionsTold) = (subscriptionsAsWere, toldAsWere)
            return .failure(error)
        }
    }

    /// The error for a stale version: who changed the order and when.
    func conflict(orderId: String) async throws -> StoreError {
        guard let current = try await sql.row("SELECT updated_by, state_changed_at, version FROM orders WHERE order_id = \(bind: orderId)") else {
            return .notFound(kind: .order, id: orderId)
        }
        return .conflict(
            orderId: orderId, changedBy: try current.string("updated_by"), at: try current.int64("state_changed_at"), version: try current.int64("version"))
    }

    /// Commit-time writes, in a fixed lock order: held order writes, owed jobs, counters by
    /// state name, then the audit head.
    func flush() async throws {
        try await writeHeld()
        try await writeOwedJobs()
        try await recordSubscriptionEvents()
        for (state, delta) in countDeltas.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where delta != 0 {
            try await sql.raw("UPDATE state_counts SET n = n + \(bind: delta) WHERE state = \(bind: state.rawValue)").run()
        }
        countDeltas = [:]
        // Workers in other processes hear of it at the commit (JobListener). Said before the
        // audit head is locked: the lock is held until the commit, by one writer at a time.
        if madeJobDue, !toldJobsDue, database.dialect == .postgres {
            try await sql.raw(SQLQueryString(JobListener.notify)).run()
            toldJobsDue = true
        }
        guard !audits.isEmpty else { return }
        // Locking the head row first serializes appenders (PostgreSQL), so the chain never forks.
        guard let locked = try await sql.row("UPDATE audit_head SET seq = seq WHERE id = 1 RETURNING \(unsafeRaw: AuditHead.Column.list)") else {
            throw StoreError.corrupt("audit_head row is missing")
        }
        let head = try AuditHead(row: locked)
        let signer = try head.signer(auditKey, anchoring: anchoring)
        var seq = head.seq
        var previous = head.hash
        // One multi-row insert per 100 entries: a group commit audits dozens at once. On
        // PostgreSQL the last one advances the head in the same statement: one round trip
        // less while the head's lock is held.
        let chunks = audits.chunks(of: 100)
        for (index, chunk) in chunks.enumerated() {
            var rows: [SQLQueryString] = []
            for entry in chunk {
                seq += 1
                let detail = try entry.detail.storedText()
                let role = entry.actor.auditRole.rawValue
                let hash = AuditChain.hash(
                    previous: previous, seq: seq, at: now, actor: entry.actor.name, role: role,
                    action: entry.action.rawValue, target: entry.target.description, reason: entry.reason, detail: detail, grants: entry.grants,
                    why: entry.why)
                rows.append(
                    """
                    (\(bind: seq), \(bind: now), \(bind: entry.actor.name), \(bind: role), \(bind: entry.action.rawValue),
                     \(bind: entry.target.description), \(bind: entry.reason), \(bind: detail), \(bind: previous), \(bind: hash),
                     \(bind: signer?.entryMAC(hash: hash)), \(bind: entry.grants?.lowerBound), \(bind: entry.grants?.upperBound), \(bind: entry.why))
                    """)
                previous = hash
            }
            let insert: SQLQueryString = """
                INSERT INTO audit_log (seq, at, actor, role, action, target, reason, detail, prev_hash, hash, mac, grants_from, grants_to, why) VALUES \(rows.joined(separator: ", "))
                """
            if index == chunks.count - 1, database.dialect == .postgres {
                let advance = AuditHead.advancing(to: seq, hash: previous, signer: signer, firstAppended: head.seq + 1)
                try await sql.raw("WITH appended AS (" + insert + ") " + advance).run()
                audits = []
                return
            }
            try await sql.raw(insert).run()
        }
        try await AuditHead.advance(sql, to: seq, hash: previous, signer: signer, firstAppended: head.seq + 1)
        audits = []
    }
}
