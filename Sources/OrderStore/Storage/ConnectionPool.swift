/// The store's connections. SQLite has one: the file serializes its writers anyway, and one
/// connection keeps WAL readers and the writer in one process simple. PostgreSQL gets up to
/// `limit`, opened when every open one is busy: with a single connection each transaction
/// waited for the one before it, round trip by round trip, and 32 concurrent re-verifies
/// spent most of their time queued for it (issue 16's bulk re-verify, measured in the README).
///
/// The first connection is `primary`: migrations, role setup and seeding use it directly,
/// under its lock, which `withConnection` takes too.
final class ConnectionPool: Sendable {
    let primary: Database
    private let slots: Slots

    init(primary: Database, limit: Int, open: @escaping @Sendable () async throws -> Database) {
        self.primary = primary
        slots = Slots(primary: primary, limit: max(1, limit), open: open)
    }

    /// Runs `body` on a connection no other caller uses meanwhile.
    func withConnection<T>(_ body: (Database) async throws -> T) async throws -> T {
        let db = await slots.acquire()
        do {
            let result = try await db.lock.run { try await body(db) }
            await slots.release(db)
            return result
        } catch {
            await slots.release(db)
            throw error
        }
    }

    /// How many connections are open now (the pool tests read it).
    var openCount: Int { get async { await slots.opened.count } }

    func close() async {
        for db in await slots.opened { await db.close() }
    }

    private actor Slots {
        private(set) var opened: [Database]
        private var idle: [Database]
        private var opening = 0
        private var waiters: [CheckedContinuation<Database, Never>] = []
        private let limit: Int
        private let open: @Sendable () async throws -> Database

        init(primary: Database, limit: Int, open: @escaping @Sendable () async throws -> Database) {
            opened = [primary]
            idle = [primary]
            self.limit = limit
            self.open = open
        }

        func acquire() async -> Database {
            if let db = idle.popLast() { return db }
            if opened.count + opening < limit {
                // Counted before the await, so concurrent callers do not overshoot the limit.
                opening += 1
                do {
                    let db = try await open()
                    opening -= 1
                    opened.append(db)
                    return db
                } catch {
                    // The server may be out of connections: wait for one of ours instead.
                    opening -= 1
                }
            }
            return await withCheckedContinuation { waiters.append($0) }
        }

        func release(_ db: Database) {
            if waiters.isEmpty {
                idle.append(db)
            } else {
                waiters.removeFirst().resume(returning: db)
            }
        }
    }
}
