import OrderDomain
import SQLKit

extension OrderStore {
    /// What the game is owed: the events written with each change (the transactional
    /// outbox), pulled by the game or pushed to its webhook, and every try to tell it.
    public var outbox: Outbox { Outbox(store: self) }
}

/// The outbox of one store (``OrderStore/outbox``).
public struct Outbox: Sendable {
    let store: OrderStore

    /// The account's events still owed to the game, oldest first (the order they happened in).
    public func unsent(account: String, limit: Int = 100) async throws -> [GameEvent] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: GameEvent.Column.list) FROM events
                WHERE account_id = \(bind: account) AND confirmed_at IS NULL AND dead_at IS NULL ORDER BY id LIMIT \(literal: limit)
                """
            ).map(GameEvent.init(row:))
        }
    }

    /// Records one try to tell the game. A 2xx confirms the event; a failure past
    /// `giveUpAt` makes it a dead letter for an operator to resend. Returns the event after.
    @discardableResult
    public func recordAttempt(_ event: GameEvent, _ attempt: GameEventAttempt, giveUpAt: Millis? = nil) async throws -> GameEvent {
        try await store.write(as: .system, now: attempt.at) { tx in
            try await tx.recordAttempt(EventAttemptRecord(event: event, attempt: attempt, giveUpAt: giveUpAt))
        }
    }

    /// Many tries in one commit (the worker's concurrent sends, group-committed); each
    /// in a savepoint of its own.
    public func recordAttempts(_ batch: [EventAttemptRecord]) async throws -> [Result<GameEvent, any Error>] {
        try await store.write(as: .system) { tx in
            var results: [Result<GameEvent, any Error>] = []
            for record in batch { results.append(try await tx.isolated { try await tx.recordAttempt(record) }) }
            return results
        }
    }

    /// Events after `cursor` in commit order, for games that pull.
    public func events(after cursor: Int64, limit: Int = 100) async throws -> [GameEvent] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: GameEvent.Column.list) FROM events WHERE id > \(bind: cursor) ORDER BY id LIMIT \(literal: limit)
                """
            ).map(GameEvent.init(row:))
        }
    }

    /// The newest event's cursor (0 when there is none).
    public func newestCursor() async throws -> Int64 {
        try await store.read { sql in try await sql.row("SELECT COALESCE(MAX(id), 0) AS n FROM events")?.int64("n") ?? 0 }
    }

    /// A pulling game acknowledges everything up to `cursor`: those events are confirmed.
    /// Returns how many were newly confirmed.
    @discardableResult
    public func acknowledge(through cursor: Int64, at now: Millis = .now()) async throws -> Int {
        try await store.write(as: .system, now: now) { tx in
            try await tx.sql.rows(
                """
                UPDATE events SET confirmed_at = \(bind: now), confirmed_via = \(bind: EventChannel.pull.rawValue)
                WHERE id <= \(bind: cursor) AND confirmed_at IS NULL RETURNING id
                """
            ).count
        }
    }

    /// Events the game has not confirmed, oldest first.
    public func unconfirmed(limit: Int = 100) async throws -> [GameEvent] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: GameEvent.Column.list) FROM events WHERE confirmed_at IS NULL ORDER BY id LIMIT \(literal: limit)
                """
            ).map(GameEvent.init(row:))
        }
    }

    /// How many events the game has not confirmed, counted up to `cap` (the header's figure).
    public func unconfirmedCount(cap: Int64 = StoreCounts.cap) async throws -> Int64 {
        try await store.read { sql in try await sql.unconfirmedEventCount(cap: cap) }
    }

    /// An order's events, oldest first.
    public func events(orderId: String) async throws -> [GameEventDetail] {
        try await store.read { sql in
            let events = try await sql.rows(
                """
                SELECT \(unsafeRaw: GameEvent.Column.list) FROM events WHERE order_id = \(bind: orderId) ORDER BY id
                """
            ).map(GameEvent.init(row:))
            var details: [GameEventDetail] = []
            for event in events { details.append(GameEventDetail(event: event, attempts: try await sql.eventAttempts(event.id))) }
            return details
        }
    }

    /// One event by its id (`evt_…`) or its cursor number.
    public func event(_ id: String) async throws -> GameEventDetail {
        try await store.read { sql in
            guard let event = try await sql.row("SELECT \(unsafeRaw: GameEvent.Column.list) FROM events WHERE \(Self.eventKey(id))").map(GameEvent.init(row:))
            else {
                throw StoreError.notFound(kind: .event, id: id)
            }
            return GameEventDetail(event: event, attempts: try await sql.eventAttempts(event.id))
        }
    }

    /// An operator sends an event again (a dead letter, or one the game says it lost):
    /// it is owed again at once, whatever its state, and the resend is audited. The game
    /// applies it once by its id whatever it had before.
    @discardableResult
    public func resend(_ id: String, by actor: Operator, reason: String, at now: Millis = .now()) async throws -> GameEvent {
        try store.requireOperator(actor, may: .resendEvents, reason: reason)
        return try await store.write(as: actor, now: now) { tx in
            guard
                let event = try await tx.sql.row(
                    """
                    UPDATE events SET dead_at = NULL, confirmed_at = NULL, confirmed_via = NULL WHERE \(Self.eventKey(id))
                    RETURNING \(unsafeRaw: GameEvent.Column.list)
                    """
                ).map(GameEvent.init(row:))
            else { throw StoreError.notFound(kind: .event, id: id) }
            try await tx.enqueue(.sendEvents(accountId: event.accountId), dueAt: now)
            tx.auditResend(event, reason: reason)
            return event
        }
    }

    /// Every dead event (up to `limit`, oldest first) owed to the game again at once, in one
    /// transaction, each resend audited on its order. Returns the events resent.
    public func resendDead(by actor: Operator, reason: String, limit: Int = 10_000, at now: Millis = .now()) async throws -> [GameEvent] {
        try store.requireOperator(actor, may: .resendEvents, reason: reason)
        return try await store.write(as: actor, now: now) { tx in
            let events = try await tx.sql.rows(
                """
                UPDATE events SET dead_at = NULL WHERE id IN (SELECT id FROM events WHERE dead_at IS NOT NULL ORDER BY id LIMIT \(literal: limit))
                RETURNING \(unsafeRaw: GameEvent.Column.list)
                """
            ).map(GameEvent.init(row:)).sorted { $0.id < $1.id }
            for account in Set(events.map(\.accountId)).sorted() { try await tx.enqueue(.sendEvents(accountId: account), dueAt: now) }
            for event in events { tx.auditResend(event, reason: reason) }
            return events
        }
    }

    /// How the game has answered `events` since they were resent: how many it confirmed,
    /// how many went dead again, and the newest error among those still owed.
    public func outcomes(_ events: [GameEvent]) async throws -> (confirmed: Int, dead: Int, lastError: String?) {
        var confirmed = 0, dead = 0
        var lastError: String?
        for start in stride(from: 0, to: events.count, by: 500) {
            let ids = events[start..<min(start + 500, events.count)].map(\.id)
            let rows = try await store.read { sql in
                try await sql.rows("SELECT confirmed_at, dead_at, last_error FROM events WHERE id IN (\(binds: ids)) ORDER BY id").map { row in
                    (
                        confirmed: try row.optionalInt64("confirmed_at") != nil, dead: try row.optionalInt64("dead_at") != nil,
                        error: try row.optionalString("last_error")
                    )
                }
            }
            confirmed += rows.count(where: \.confirmed)
            dead += rows.count(where: \.dead)
            lastError = rows.last { !$0.confirmed && $0.error != nil }?.error ?? lastError
        }
        return (confirmed, dead, lastError)
    }

    /// An event named by its id (`evt_…`) or its cursor number.
    private static func eventKey(_ id: String) -> SQLQueryString {
        Int64(id).map { "id = \(bind: $0)" } ?? "event_id = \(bind: id)"
    }

    /// The game endpoint failing now: the newest pushes all failed, at least
    /// OutageRule.streak of them, the newest recent. Nil when the game answers. `counts`
    /// already loaded (the console's header) are reused.
    public func endpointOutage(counts known: StoreCounts? = nil, now: Millis = .now()) async throws -> GameEndpointOutage? {
        let newest = try await store.read { sql in
            try await sql.rows("SELECT at, http_status FROM event_attempts ORDER BY id DESC LIMIT 100").map { row in
                (at: try row.int64("at"), ok: try row.optionalInt64("http_status").map { (200..<300).contains($0) } ?? false)
            }
        }
        let run = newest.prefix { !$0.ok }
        guard run.count >= OutageRule.streak, let latest = run.first, let oldest = run.last, now - latest.at <= OutageRule.staleAfter else { return nil }
        let waiting = if let known { known.gameNotTold } else { try await unconfirmedCount() }
        return GameEndpointOutage(since: oldest.at, failures: run.count, waiting: waiting)
    }

    /// Accounts with events owed that no send job covers (a webhook configured after the
    /// events were written, a job lost to an operator's cleanup): owed a send now.
    @discardableResult
    public func scheduleUnsent(now: Millis = .now(), limit: Int = 10_000) async throws -> Int {
        try await store.write(as: .system, now: now) { tx in
            let accounts = try await tx.sql.rows(
                """
                SELECT DISTINCT account_id FROM events e WHERE confirmed_at IS NULL AND dead_at IS NULL
                  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = \(bind: JobKind.sendEvents.rawValue) AND j.subject = e.account_id)
                LIMIT \(literal: limit)
                """
            ).map { try $0.string("account_id") }
            for account in accounts { try await tx.enqueue(.sendEvents(accountId: account), dueAt: now) }
            return accounts.count
        }
    }
}

/// One try to tell the game, as the sender hands it to the store.
public struct EventAttemptRecord: Sendable {
    public var event: GameEvent
    public var attempt: GameEventAttempt
    /// Past this, a failed event is a dead letter.
    public var giveUpAt: Millis?

    public init(event: GameEvent, attempt: GameEventAttempt, giveUpAt: Millis?) {
        self.event = event
        self.attempt = attempt
        self.giveUpAt = giveUpAt
    }
}

extension WriteTransaction {
    /// An operator's resend, on the event's order's trail.
    func auditResend(_ event: GameEvent, reason: String) {
        audit(.eventResend, target: .order(event.orderId ?? "-"), reason: reason, .eventResent(eventId: event.eventId, type: event.type))
    }

    func recordAttempt(_ record: EventAttemptRecord) async throws -> GameEvent {
        let (event, attempt) = (record.event, record.attempt)
        try await sql.raw(
            """
            INSERT INTO event_attempts (event, at, via, http_status, answer, latency_ms)
            VALUES (\(bind: event.id), \(bind: attempt.at), \(bind: attempt.via.rawValue), \(bind: attempt.httpStatus), \(bind: attempt.answer), \(bind: attempt.latencyMs))
            """
        ).run()
        let confirmed = attempt.succeeded
        let dead = !confirmed && record.giveUpAt.map { attempt.at >= $0 } == true
        guard
            let row = try await sql.row(
                """
                UPDATE events SET attempts = attempts + 1, last_attempt_at = \(bind: attempt.at), last_status = \(bind: attempt.httpStatus),
                  last_error = \(bind: confirmed ? nil : attempt.answer.map { String($0.prefix(500)) }),
                  confirmed_at = CASE WHEN confirmed_at IS NULL AND \(bind: confirmed ? 1 : 0) = 1 THEN \(bind: attempt.at) ELSE confirmed_at END,
                  confirmed_via = CASE WHEN confirmed_at IS NULL AND \(bind: confirmed ? 1 : 0) = 1 THEN \(bind: EventChannel.push.rawValue) ELSE confirmed_via END,
                  dead_at = CASE WHEN \(bind: dead ? 1 : 0) = 1 THEN \(bind: attempt.at) ELSE dead_at END
                WHERE id = \(bind: event.id) RETURNING \(unsafeRaw: GameEvent.Column.list)
                """)
        else { throw StoreError.notFound(kind: .event, id: event.eventId) }
        if dead { audit(.eventDead, target: .order(event.orderId ?? "-"), .eventDead(eventId: event.eventId)) }
        return try GameEvent(row: row)
    }
}

extension SQLDatabase {
    func unconfirmedEventCount(cap: Int64) async throws -> Int64 {
        try await row("SELECT \(UnconfirmedEvents.count(cap: cap)) AS n")?.int64("n") ?? 0
    }

    func eventAttempts(_ event: Int64) async throws -> [GameEventAttempt] {
        try await rows(
            """
            SELECT \(unsafeRaw: GameEventAttempt.Column.list) FROM event_attempts WHERE event = \(bind: event) ORDER BY id
            """
        ).map(GameEventAttempt.init(row:))
    }
}

/// Events the game has not confirmed, counted up to a cap: an SQL expression, so the
/// header's counts ask for it in their one statement.
enum UnconfirmedEvents {
    static func count(cap: Int64) -> SQLQueryString {
        "(SELECT COUNT(*) FROM (SELECT id FROM events WHERE confirmed_at IS NULL LIMIT \(literal: cap)) AS capped_events)"
    }
}
