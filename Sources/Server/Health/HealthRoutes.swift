import Foundation
import Hummingbird
import NIOCore
import OrderDomain
import OrderStore
import Presentation

/// `/healthz`: the process answers. `/readyz`: the store answers too, with the job queue.
/// `/metrics`: Prometheus text format.
struct HealthRoutes: Sendable {
    let store: OrderStore
    let metrics: ServeMetrics

    func add(to router: Router<ServeContext>) {
        router.get("/healthz") { _, _ in JSONAnswer.response(.ok, encoding: SmallAnswers.Alive()) }
        router.get("/readyz") { _, _ in
            do {
                let queue = try await store.jobs.status()
                // Read, but the last write failed for the database's sake: not ready.
                if let outage = store.health.current { throw StoreError.unavailable(outage.why) }
                return JSONAnswer.response(.ok, encoding: SmallAnswers.Ready(queue))
            } catch {
                // The operator's own endpoint: the database's words say what is wrong.
                var problem = Problem.unavailable("the order store does not answer: \(ErrorWords.what(error))")
                problem.title = "Not ready"
                return problem.response
            }
        }
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml)))
        }
        router.get("/metrics") { _, _ in
            let text = metrics.render(queue: try? await store.jobs.status())
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }
}
