import Foundation

/// A TCP port on 127.0.0.1 that nothing listens on right now, for a server a test starts.
public enum LoopbackPort {
    public struct Unavailable: Error {}

    /// A port nothing listens on now. Another test may take it before it is used: for a
    /// port that must refuse, ``refusing(_:)``.
    public static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return try bindAnyPort(fd)
    }

    /// Runs `body` with a loopback port that refuses connections all the while: bound by this
    /// process and never listened on, so no server another test starts can take it (a port
    /// found free and let go was once taken before the call that expected a refusal).
    public static func refusing<T>(_ body: (Int) async throws -> T) async throws -> T {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return try await body(try bindAnyPort(fd))
    }

    private static func bindAnyPort(_ fd: Int32) throws -> Int {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Unavailable() }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on 127.0.0.1:`port` now.
    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return connect(fd, to: port)
    }

    /// Connects the socket `fd` to 127.0.0.1:`port`; false when nothing accepts.
    static func connect(_ fd: Int32, to port: Int) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Waits up to `seconds` for a daemon that returned before it listens (`pgbouncer -d`, `haproxy -D`).
    public static func waitUntilAccepting(_ port: Int, seconds: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !accepts(port) {
            guard Date() < deadline else { throw Machine.Missing(what: "a server listening on 127.0.0.1:\(port) within \(seconds) s") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
