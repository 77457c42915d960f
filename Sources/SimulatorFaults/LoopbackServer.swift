import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A simulator's routes served over HTTP, bound before `start` returns: the App Store and
/// Google Play simulators both run on it, in process (port 0: the system picks a free one)
/// or as `iapdesk simulator` and `iapdesk play-simulator`. The reference game serves on it too.
///
/// A stop is a graceful shutdown, never a cancelled task: cancelling a Hummingbird server
/// while a connection it accepted is still queued trapped the test process once in NIO
/// ("Deinited NIOAsyncWriter without calling finish()", apple/swift-nio#3481).
public final class LoopbackServer: Sendable {
    /// `http://HOST:PORT`
    public let baseURL: String
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, host: String, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        baseURL = "http://\(host):\(port)"
        self.group = group
        self.task = task
    }

    /// Starts serving `router` and returns once the port is bound; `name` is what the
    /// server calls itself and what an error says could not listen.
    public static func start(_ router: Router<BasicRequestContext>, name: String, host: String, port: Int) async throws -> LoopbackServer {
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        let logger = Logger(label: name, factory: { _ in SwiftLogNoOpLogHandler() })
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: name),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? port)
                boundContinuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], cancellationSignals: [], logger: logger)
        let task = Task {
            defer { boundContinuation.finish() }
            try await group.run()
        }
        var iterator = bound.makeAsyncIterator()
        guard let actual = await iterator.next() else {
            // The server ended before binding: surface its error (the port in use, say).
            try await task.value
            throw LoopbackServerError(name: name, host: host, port: port)
        }
        return LoopbackServer(port: actual, host: host, group: group, task: task)
    }

    /// Runs until the task that called it is cancelled (for the commands that serve by hand),
    /// then stops as ``stop()`` does.
    public func wait() async throws {
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: { [group] in
            Task { await group.triggerGracefulShutdown() }
        }
    }

    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}

public struct LoopbackServerError: Error, CustomStringConvertible {
    public var name: String
    public var host: String
    public var port: Int
    public var description: String { "\(name) could not listen on \(host):\(port)" }
}
