import Foundation

/// A throwaway PostgreSQL server for the test run: `initdb` and `pg_ctl` on a free
/// loopback port in a temp dir, stopped by a watchdog when the test process ends.
/// `IAPDESK_TEST_POSTGRES_URL` points the tests at an existing server instead.
///
/// In CI (`CI=true`) a missing server is a failure; elsewhere PostgreSQL cases are
/// reported as skipped, naming what to install (see `Backend.unavailableReason`).
public enum PostgresServer {
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether a server can be had here: CI always claims one (and fails without it).
    public static var available: Bool { Machine.isCI || externalURL != nil || binDirectory != nil }

    public static var externalURL: String? { ProcessInfo.processInfo.environment["IAPDESK_TEST_POSTGRES_URL"] }

    static var binDirectory: String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
            .map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }

    /// The server's base URL (no database), started once per test process.
    public static func baseURL() async throws -> String {
        try await shared.baseURL()
    }

    /// A new, empty database on the server, so each test starts clean.
    public static func freshDatabaseURL() async throws -> String {
        let base = try await baseURL()
        let name = "iapdesk_test_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
        // An ICU locale collation, like a production database's, where ordering differs
        // from the bytes ("A2" sorts between "a1" and "a2"). Servers without ICU or before
        // PostgreSQL 15 get their default collation.
        let create = "CREATE DATABASE \(name)"
        let psql = try psqlPath()
        try await OffPool.run {
            do {
                try run(
                    psql,
                    [
                        "\(base)/postgres", "-q", "-v", "ON_ERROR_STOP=1", "-c",
                        "\(create) TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'",
                    ])
            } catch {
                try run(psql, ["\(base)/postgres", "-q", "-v", "ON_ERROR_STOP=1", "-c", create])
            }
        }
        return "\(base)/\(name)"
    }

    private static let shared = Starter()

    private actor Starter {
        /// The one start, shared: the actor is entered again while a start runs off the
        /// pool, and every caller then waits for that start instead of making another.
        var start: Task<String, any Error>?

        func baseURL() async throws -> String {
            if let start { return try await start.value }
            let start = Task<String, any Error> {
                if let external = PostgresServer.externalURL {
                    // Strip a database path: tests create their own databases.
                    return external.split(separator: "/").prefix(3).joined(separator: "/")
                }
                return try await OffPool.run { try PostgresServer.start() }
            }
            self.start = start
            return try await start.value
        }
    }

    /// One statement run by psql in the database at `url`; its output, unaligned.
    @discardableResult
    public static func psql(_ statement: String, url: String) async throws -> String {
        let psql = try psqlPath()
        return try await OffPool.run { try run(psql, [url, "-Atq", "-v", "ON_ERROR_STOP=1", "-c", statement]) }
    }

    private static func psqlPath() throws -> String {
        if let bin = binDirectory, FileManager.default.isExecutableFile(atPath: "\(bin)/psql") { return "\(bin)/psql" }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/psql") { return "/usr/bin/psql" }
        throw Unavailable(description: "psql not found: install postgresql-client")
    }

    private static func start() throws -> String {
        try Instance.start(durable: false).url
    }

    /// A PostgreSQL server of the test's own, which it may stop and start again (a restart
    /// under load) without disturbing the other tests' shared server. Stopped by a watchdog
    /// when the test process ends, like the shared one. Its commits are durable as a
    /// production server's are (`synchronous_commit = on`): with the shared server's
    /// `off`, a crash (`immediate` stop) loses the last commits by design.
    public static func dedicated() async throws -> Instance { try await OffPool.run { try Instance.start(durable: true) } }

    public struct Instance: Sendable {
        let bin: String
        let dir: String
        public let port: Int
        let durable: Bool
        /// `postgres://postgres@127.0.0.1:PORT` (no database).
        public var url: String { "postgres://postgres@127.0.0.1:\(port)" }

        public enum StopMode: String, Sendable { case fast, immediate }

        static func start(durable: Bool) throws -> Instance {
            guard let bin = binDirectory else {
                throw Unavailable(description: "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)")
            }
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-pg-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let instance = Instance(bin: bin, dir: dir, port: try LoopbackPort.free(), durable: durable)
            if getuid() == 0 { try run("/bin/chown", ["-R", "postgres:postgres", dir]) }
            try instance.server("initdb", ["-D", "\(dir)/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
            try instance.startNow()
            try instance.stopWhenTestsEnd()
            return instance
        }

        /// Stops the server when this process ends, however it ends.
        private func stopWhenTestsEnd() throws {
            try Machine.whenTestsEnd("\(command("pg_ctl")) -D \(dir)/data -m immediate stop >/dev/null 2>&1; rm -rf \(dir)")
        }

        /// A hot standby of this server on a port of its own, streaming from it
        /// (`pg_basebackup -R`): it answers reads and refuses writes until promoted.
        public func standby() async throws -> Instance {
            let primary = self
            return try await OffPool.run {
                let dir = FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-pg-\(UUID().uuidString.prefix(8))").path
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                if getuid() == 0 { try run("/bin/chown", ["-R", "postgres:postgres", dir]) }
                let standby = Instance(bin: primary.bin, dir: dir, port: try LoopbackPort.free(), durable: primary.durable)
                try standby.server(
                    "pg_basebackup",
                    ["-h", "127.0.0.1", "-p", "\(primary.port)", "-U", "postgres", "-D", "\(dir)/data", "-R", "-X", "stream", "--no-sync", "--checkpoint=fast"])
                try standby.startNow()
                try standby.stopWhenTestsEnd()
                return standby
            }
        }

        /// Starts the server (again), returning once it accepts connections. The suite runs
        /// its tests at once, many with a `serve` of their own and its pools: 200 connections
        /// ran out (`too many clients`) once the refund and extension tests came.
        public func start() async throws {
            let instance = self
            try await OffPool.run { try instance.startNow() }
        }

        func startNow() throws {
            try server(
                "pg_ctl",
                [
                    "-D", "\(dir)/data", "-l", "\(dir)/log", "-w", "-o",
                    "-p \(port) -k \(dir) -h 127.0.0.1 -c fsync=off -c synchronous_commit=\(durable ? "on" : "off") -c max_connections=500 -c log_lock_waits=on",
                    "start",
                ])
        }

        /// Stops the server: `fast` ends every session and shuts down cleanly (a minor
        /// upgrade's restart); `immediate` is a crash, recovered from the WAL at the next start.
        public func stop(_ mode: StopMode) async throws {
            let instance = self
            try await OffPool.run { try instance.server("pg_ctl", ["-D", "\(instance.dir)/data", "-m", mode.rawValue, "-w", "stop"]) }
        }

        /// Ends recovery on a standby: it becomes a primary and takes writes (a failover).
        public func promote() async throws {
            let instance = self
            try await OffPool.run { try instance.server("pg_ctl", ["-D", "\(instance.dir)/data", "-w", "promote"]) }
        }

        /// One statement run by psql as the superuser; its output, unaligned.
        @discardableResult
        public func psql(_ statement: String, database: String = "postgres") async throws -> String {
            try await PostgresServer.psql(statement, url: "\(url)/\(database)")
        }

        /// A database of its own on this server.
        public func freshDatabaseURL() async throws -> String {
            let name = "iapdesk_test_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
            let (psql, url) = (try psqlPath(), url)
            try await OffPool.run { try PostgresServer.run(psql, ["\(url)/postgres", "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"]) }
            return "\(url)/\(name)"
        }

        /// initdb and pg_ctl refuse to run as root: as root, they run as the postgres user.
        private func command(_ tool: String) -> String {
            getuid() == 0 ? "runuser -u postgres -- \(bin)/\(tool)" : "\(bin)/\(tool)"
        }

        private func server(_ tool: String, _ args: [String]) throws {
            if getuid() == 0 {
                try run("/usr/sbin/runuser", ["-u", "postgres", "--", "\(bin)/\(tool)"] + args)
            } else {
                try run("\(bin)/\(tool)", args)
            }
        }
    }

    /// Runs a tool to completion (``Spawned``). Output goes to a file: `pg_ctl start` leaves
    /// the server holding its descriptors.
    @discardableResult
    public static func run(_ path: String, _ args: [String], wait: Bool = true) throws -> String {
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-run-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let child = try Spawned(path, args, output: wait ? .file(logPath) : .null, errors: .output)
        guard wait else { return "" }
        child.waitForExit()
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        guard child.exitStatus == 0 else {
            throw Unavailable(description: "\(path) \(args.joined(separator: " ")) failed (status \(child.exitStatus)): \(text)")
        }
        return text
    }
}
