import CoreMetrics
import Foundation
import Hummingbird
import OrderDomain
import OrderStore
import Prometheus

/// What `/metrics` shows in Prometheus text format: requests by route and status with a
/// latency histogram, Apple's answers to the worker by outcome, notifications by type and
/// verdict, and the job queue (due, leased, dead, the oldest due job's age). Recorded
/// through swift-metrics with a Prometheus factory of this server's own, so two servers in
/// one process (tests) never share or clash over a global bootstrap.
public final class ServeMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [1, 2, 5, 10, 25, 50, 100, 250, 1000, 5000].map { .milliseconds($0) }
        self.factory = factory
    }

    func request(route: String, method: String, status: Int, duration: Duration) {
        let dimensions = [("route", route), ("method", method)]
        Counter(label: "iapdesk_http_requests_total", dimensions: dimensions + [("status", "\(status)")], factory: factory).increment()
        CoreMetrics.Timer(label: "iapdesk_http_request_duration_seconds", dimensions: dimensions, factory: factory).recordNanoseconds(
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// One group commit of intake submissions: how many it answered. Commits and
    /// submissions as counters, so the mean batch is a division in Prometheus.
    func intakeCommit(size: Int) {
        Counter(label: "iapdesk_intake_commits_total", factory: factory).increment()
        Counter(label: "iapdesk_intake_committed_submissions_total", factory: factory).increment(by: size)
    }

    /// One push to the game: its HTTP status, or "none" when it did not answer.
    func eventSent(status: Int?) {
        Counter(label: "iapdesk_game_events_sent_total", dimensions: [("status", status.map(String.init) ?? "none")], factory: factory).increment()
    }

    /// One answer (or failure) from Apple to the worker, by R3's outcome.
    func verification(outcome: String) {
        Counter(label: "iapdesk_apple_verifications_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// A notification received: its type and what storing it came to (stored, duplicate, rejected).
    func notification(type: String?, result: String) {
        Counter(label: "iapdesk_notifications_total", dimensions: [("type", type ?? "unknown"), ("result", result)], factory: factory).increment()
    }

    /// The exposition, with the queue's gauges read at this moment.
    func render(queue: JobQueueStatus?, now: Millis = .now()) -> String {
        if let queue {
            registry.makeGauge(name: "iapdesk_jobs_due").set(Double(queue.due))
            registry.makeGauge(name: "iapdesk_jobs_leased").set(Double(queue.leased))
            registry.makeGauge(name: "iapdesk_jobs_dead").set(Double(queue.dead))
            registry.makeGauge(name: "iapdesk_jobs_oldest_due_age_seconds").set(Double(queue.oldestDueAt.map { max(0, now - $0) } ?? 0) / 1000)
        }
        registry.makeGauge(name: "iapdesk_store_up").set(Double(queue == nil ? 0 : 1))
        return registry.emitToString()
    }
}

/// Counts and times every request by its matched route (not the raw path, so ids in URLs
/// do not multiply the series).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServeMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        metrics.request(
            route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: response.status.code,
            duration: ContinuousClock.now - start)
        return response
    }
}
