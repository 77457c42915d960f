import Foundation
import Testing

/// PgBouncer in transaction mode in front of a PostgreSQL server, on a free loopback port:
/// each transaction goes to any of `serverConnections` server connections, so whatever a
/// client leaves on its session (a prepared statement, a LISTEN) is gone by the next one.
/// Stopped by a watchdog when the test process ends.
public struct PgBouncer: Sendable {
    public static let path = "/usr/sbin/pgbouncer"
    public let port: Int
    let dir: String

    /// `url` with its host and port replaced by the pooler's, and `pooler=transaction`.
    public func url(for database: String) throws -> String {
        guard var parts = URLComponents(string: database) else { throw Machine.Missing(what: "a PostgreSQL URL: \(database)") }
        parts.host = "127.0.0.1"
        parts.port = port
        parts.queryItems = (parts.queryItems ?? []) + [URLQueryItem(name: "pooler", value: "transaction")]
        return try #require(parts.string)
    }

    /// Starts PgBouncer for every database of the server `serverURL` names, letting in
    /// `users` without a password (the test server trusts loopback).
    public static func start(before of: String, users: [String] = ["postgres"], serverConnections: Int = 2) async throws -> PgBouncer {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Machine.Missing(what: "PgBouncer (apt-get install pgbouncer)") }
        guard let server = URLComponents(string: of), let host = server.host, let serverPort = server.port else {
            throw Machine.Missing(what: "a PostgreSQL URL with a host and port: \(of)")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-pgbouncer-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let bouncer = PgBouncer(port: try LoopbackPort.free(), dir: dir)
        let users = users.map { "\"\($0)\" \"\"" }.joined(separator: "\n")
        try users.write(toFile: "\(dir)/users.txt", atomically: true, encoding: .utf8)
        let ini = """
            [databases]
            * = host=\(host) port=\(serverPort)

            [pgbouncer]
            listen_addr = 127.0.0.1
            listen_port = \(bouncer.port)
            unix_socket_dir =
            auth_type = trust
            auth_file = \(dir)/users.txt
            pool_mode = transaction
            default_pool_size = \(serverConnections)
            min_pool_size = 0
            reserve_pool_size = 0
            max_client_conn = 500
            max_db_connections = \(serverConnections)
            server_reset_query =
            ignore_startup_parameters = extra_float_digits,application_name
            logfile = \(dir)/pgbouncer.log
            pidfile = \(dir)/pgbouncer.pid
            """
        try ini.write(toFile: "\(dir)/pgbouncer.ini", atomically: true, encoding: .utf8)
        // PgBouncer refuses to run as root.
        if getuid() == 0 { try PostgresServer.run("/bin/chown", ["-R", "postgres:postgres", dir]) }
        let run = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", path] : [path]
        try await OffPool.run { try PostgresServer.run(run[0], Array(run.dropFirst()) + ["-d", "\(dir)/pgbouncer.ini"]) }
        try Machine.whenTestsEnd("kill -9 $(cat \(dir)/pgbouncer.pid) 2>/dev/null; rm -rf \(dir)")
        try await LoopbackPort.waitUntilAccepting(bouncer.port)
        return bouncer
    }

    /// The pooler's log, for a failing test to show.
    public var log: String { (try? String(contentsOfFile: "\(dir)/pgbouncer.log", encoding: .utf8)) ?? "" }
}

extension Trait where Self == ConditionTrait {
    public static var needsPgBouncer: Self {
        .needs("PgBouncer and a PostgreSQL server (apt-get install pgbouncer postgresql)") {
            FileManager.default.isExecutableFile(atPath: PgBouncer.path) && Backend.postgres.unavailableReason == nil
        }
    }
}
