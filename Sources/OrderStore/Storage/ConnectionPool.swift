import Foundation
import OrderDomain

/// The store's connections. SQLite has one: the file serializes its writers anyway, and one
/// connection keeps WAL readers and the writer in one process simple. PostgreSQL gets up to
/// `limit`, opened when every open one is busy: with a single connection each transaction
/// waited for the one before it, round trip by round trip, and 32 concurrent re-verifies
/// spent most of their time queued for it (bulk re-verification, measured in the Performance article).
///
/// A database restart closes every connection under the pool. A closed connection is
/// never handed out again: it is dropped when it comes back and when it is found idle, and
/// the next caller opens a fresh one. A caller waits for a connection as long as the pool
/// makes progress (a connection came back within `wait`, ``StoreSettings/databaseDeadline``):
/// a burst of callers queues, FIFO (callers answering a client ahead, ``CallPriority``),
/// behind working connections, but none waits on
/// connections that stopped coming back. When none can be opened at all (the server is down
/// or refuses), the caller is told at once with ``StoreError/unavailable(_:)``.
///
/// The first connection is `primary`: migrations, role setup and seeding use it directly,
/// under its lock, which `withConnection` takes too.
final class ConnectionPool: Sendable {
    let primary: Database
    private let slots: Slots
    let health = StoreHealth()

    init(primary: Database, limit: Int, wait: Duration, open: @escaping @Sendable () async throws -> Database) {
        self.primary = primary
        slots = Slots(primary: primary, limit: max(1, limit), wait: wait, open: open)
    }

    /// Runs `body` on a connection no other caller uses meanwhile. A failure because the
    /// database is out of reach is thrown as ``StoreError/unavailable(_:)`` and marks the
    /// store unreachable (``StoreHealth``) until a call succeeds again; a failed write (a
    /// read-only or full disk) until a write is shown to reach the disk again.
    func withConnection<T>(writing: Bool = false, _ body: (Database) async throws -> T) async throws -> T {
        let db: Database
        do {
            db = try await slots.acquire()
        } catch {
            throw health.failed(error, writing: writing)
        }
        do {
            let result = try await db.lock.run { try await body(db) }
            await slots.release(db)
            health.succeeded()
            return result
        } catch {
            await slots.release(db)
            throw health.failed(error, writing: writing)
        }
    }

    /// How many connections are open now (the pool tests read it).
    var openCount: Int { get async { await slots.opened.count } }

    /// How many callers wait for a connection now (the pool tests read it).
    var waitingCount: Int { get async { await slots.waitingCount } }

    func close() async {
        for db in await slots.closeAll() { await db.close() }
    }

    private actor Slots {
        private(set) var opened: [ObjectIdentifier: Database]
        private var idle: [Database]
        private var opening = 0
        private var closed = false
        /// When a connection last came back: waiting is worth it while this is recent.
        private var lastRelease = ContinuousClock.now
        /// Callers waiting for a connection, first come first served, those answering a
        /// client (``CallPriority``) before the rest. A waiter is resumed with a connection,
        /// or with nil: try again (a slot freed, the wait timed out).
        private var waiters: [(id: UUID, answering: Bool, continuation: CheckedContinuation<Database?, Never>)] = []
        private let limit: Int
        private let wait: Duration
        private let open: @Sendable () async throws -> Database

        init(primary: Database, limit: Int, wait: Duration, open: @escaping @Sendable () async throws -> Database) {
            opened = [ObjectIdentifier(primary): primary]
            idle = [primary]
            self.limit = limit
            self.wait = wait
            self.open = open
        }

        func acquire() async throws -> Database {
            let started = ContinuousClock.now
            while true {
                guard !closed else { throw StoreError.unavailable("the store is closed") }
                while let db = idle.popLast() {
                    if db.isOpen { return db }
                    forget(db)
                }
                if opened.count + opening < limit {
                    // Counted before the await, so concurrent callers do not overshoot the limit.
                    opening += 1
                    do {
                        let db = try await open()
                        opening -= 1
                        opened[ObjectIdentifier(db)] = db
                        return db
                    } catch {
                        opening -= 1
                        // No connection of ours is alive: the server is down or refuses us.
                        // Say so now; nothing will be released to wait for.
                        if opened.isEmpty { throw error }
                        // Otherwise the server may be out of connections: wait for one of ours.
                    }
                }
                var deadline = max(started, lastRelease) + wait
                if let budget = CallBudget.deadline, budget < deadline {
                    guard ContinuousClock.now < budget else { throw CallBudget.spent }
                    deadline = budget
                }
                guard ContinuousClock.now < deadline else {
                    throw StoreError.unavailable("no database connection came back within \(wait)")
                }
                if let db = try await waitForRelease(until: deadline) { return db }
            }
        }

        func release(_ db: Database) {
            lastRelease = .now
            guard db.isOpen, !closed else {
                forget(db)
                // A slot is free for a new connection: the first waiter opens it.
                nextWaiter()?.resume(returning: nil)
                return
            }
            if let waiter = nextWaiter() {
                waiter.resume(returning: db)
            } else {
                idle.append(db)
            }
        }

        /// The waiter whose turn it is, taken off the list.
        private func nextWaiter() -> CheckedContinuation<Database?, Never>? {
            guard let index = waiters.firstIndex(where: \.answering) ?? waiters.indices.first else { return nil }
            return waiters.remove(at: index).continuation
        }

        var waitingCount: Int { waiters.count }

        func closeAll() -> [Database] {
            closed = true
            for waiter in waiters { waiter.continuation.resume(returning: nil) }
            waiters = []
            idle = []
            defer { opened = [:] }
            return Array(opened.values)
        }

        private func forget(_ db: Database) {
            opened[ObjectIdentifier(db)] = nil
            Task { await db.close() }
        }

        /// A connection passed on by `release`, or nil once `deadline` passed or the task was
        /// cancelled (the caller then decides again).
        private func waitForRelease(until deadline: ContinuousClock.Instant) async throws -> Database? {
            let id = UUID()
            let timer = Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                await self?.stopWaiting(id)
            }
            defer { timer.cancel() }
            let db = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in waiters.append((id, CallPriority.answering, continuation)) }
            } onCancel: {
                Task { await self.stopWaiting(id) }
            }
            if Task.isCancelled {
                if let db { release(db) }
                throw CancellationError()
            }
            return db
        }

        private func stopWaiting(_ id: UUID) {
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
            waiters.remove(at: index).continuation.resume(returning: nil)
        }
    }
}
