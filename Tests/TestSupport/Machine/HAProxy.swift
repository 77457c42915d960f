import Foundation
import Testing

/// HAProxy on a free loopback port, spreading HTTP over several `serve`s as a studio's load
/// balancer does: round robin, each backend health-checked on `/readyz` every 500 ms, a
/// connection refused sent to another backend. Stopped by a watchdog when the test process ends.
public struct HAProxy: Sendable {
    public static let path = "/usr/sbin/haproxy"
    public let port: Int
    let dir: String

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts HAProxy in front of `backends` (`http://127.0.0.1:PORT` each).
    public static func start(before backends: [String]) async throws -> HAProxy {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Machine.Missing(what: "HAProxy (apt-get install haproxy)") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-haproxy-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let proxy = HAProxy(port: try LoopbackPort.free(), dir: dir)
        let servers = backends.enumerated().map { index, url in
            "    server serve\(index) \(url.replacingOccurrences(of: "http://", with: "")) check inter 500ms fall 2 rise 1"
        }
        let config = """
            global
                pidfile \(dir)/haproxy.pid
                maxconn 512
            defaults
                mode http
                timeout connect 1s
                timeout client 30s
                timeout server 30s
                retries 3
                option redispatch
            frontend intake
                bind 127.0.0.1:\(proxy.port)
                default_backend serves
            backend serves
                balance roundrobin
                option httpchk GET /readyz
            \(servers.joined(separator: "\n"))
            """
        try (config + "\n").write(toFile: "\(dir)/haproxy.cfg", atomically: true, encoding: .utf8)
        try await OffPool.run { try PostgresServer.run(path, ["-D", "-f", "\(dir)/haproxy.cfg"]) }
        try Machine.whenTestsEnd("kill -9 $(cat \(dir)/haproxy.pid) 2>/dev/null; rm -rf \(dir)")
        try await LoopbackPort.waitUntilAccepting(proxy.port)
        return proxy
    }

    public func stop() {
        _ = system("kill -9 $(cat \(dir)/haproxy.pid) 2>/dev/null")
    }
}

extension Trait where Self == ConditionTrait {
    public static var needsHAProxy: Self {
        .needs("HAProxy, a PostgreSQL server and the iapdesk binary (apt-get install haproxy postgresql; swift build --build-tests)") {
            FileManager.default.isExecutableFile(atPath: HAProxy.path) && Backend.postgres.unavailableReason == nil && Machine.iapdeskBinary != nil
        }
    }
}
