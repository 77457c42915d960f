import Hummingbird
import Synchronization

/// The requests this process is working on now, each with someone on the line: Apple's or
/// Google's delivery of a notification, a game server waiting for its 202. The worker's
/// store-only work (applying what was stored) yields to them (`Worker.Settings.yieldToRequests`):
/// on cores both share, a notification applied a few seconds later costs nobody
/// anything, while an acknowledgement that waits behind the applying is what Apple and
/// Google time, and resend when it is slow.
///
/// A request counts while it works, not while it only waits (`?wait=` for a verdict, a long
/// poll for events): those mark their waits with ``waiting(_:)``.
public final class RequestsInFlight: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    /// The request whose handler runs in this task, set by ``Counting``.
    @TaskLocal static var current: RequestsInFlight?

    var working: Int { count.load(ordering: .relaxed) }

    /// Runs `body` uncounted: the request it belongs to only waits meanwhile.
    static func waiting<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        guard let counter = current else { return try await body() }
        counter.count.subtract(1, ordering: .relaxed)
        defer { counter.count.add(1, ordering: .relaxed) }
        return try await body()
    }

    /// Returns once no request is being worked on, or after `limit`, whichever comes first.
    /// Polled each millisecond: cheaper than waking on every request's end, and the worker
    /// starts within a millisecond of a gap.
    func quiet(upTo limit: Duration) async {
        let until = ContinuousClock.now + limit
        while working > 0, ContinuousClock.now < until, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Counts each request from its arrival to its answer.
    struct Counting<Context: RequestContext>: RouterMiddleware {
        let requests: RequestsInFlight

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            requests.count.add(1, ordering: .relaxed)
            defer { requests.count.subtract(1, ordering: .relaxed) }
            return try await RequestsInFlight.$current.withValue(requests) { try await next(request, context) }
        }
    }
}
