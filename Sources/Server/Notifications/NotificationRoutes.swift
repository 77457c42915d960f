import Foundation
import Hummingbird
import Logging
import NIOCore
import OrderDomain
import OrderStore
import Presentation

/// The App Store Server Notifications V2 receivers, one URL per environment as App Store
/// Connect has them: `POST /apple/notifications/production` and `…/sandbox`. The 2xx is
/// sent only after the notification is stored (R1), group-committed with those arriving
/// meanwhile; if storing fails Apple gets a 5xx and retries. A forged or garbage body is
/// kept for operators (bounded), changes nothing, and gets a 4xx.
struct NotificationRoutes: Sendable {
    let decoder: NotificationDecoder
    let metrics: ServeMetrics
    let logger: Logger
    /// Notifications that arrive together share one durable commit (Apple's bursts after an outage).
    let storing: GroupCommit<IncomingNotification, NotificationReceipt>

    init(store: OrderStore, decoder: NotificationDecoder, metrics: ServeMetrics, logger: Logger) {
        self.decoder = decoder
        self.metrics = metrics
        self.logger = logger
        storing = GroupCommit(concurrency: store.concurrentWriters) { batch in
            try await CallPriority.answering { try await store.notifications.receive(all: batch) }
        }
    }

    /// Apple's notifications are a few KB; anything far bigger is not one.
    static let maxBody = 256 * 1024

    func add(to router: Router<ServeContext>) {
        for endpoint in AppleEnvironment.allCases {
            router.post("/apple/notifications/\(endpoint.rawValue.lowercased())") { request, _ in await receive(request, endpoint) }
        }
    }

    private struct Body: Decodable {
        var signedPayload: String
    }

    private func receive(_ request: Request, _ endpoint: AppleEnvironment) async -> Response {
        let bytes: ByteBuffer
        do {
            bytes = try await request.body.collect(upTo: Self.maxBody)
        } catch {
            return Problem(status: .contentTooLarge, title: "Content too large", detail: "a notification is at most \(Self.maxBody) bytes").response
        }
        let incoming: IncomingNotification
        if let body = try? JSONDecoder().decode(Body.self, from: Data(buffer: bytes)) {
            incoming = await decoder.decode(signedPayload: body.signedPayload, endpoint: endpoint, via: .receiver)
        } else {
            incoming = decoder.garbage(String(decoding: bytes.readableBytesView, as: UTF8.self), endpoint: endpoint, via: .receiver)
        }
        do {
            let receipt = try await storing.submit(incoming)
            metrics.notification(type: incoming.rejection == nil ? incoming.facts.type : nil, result: receipt.name)
            switch receipt {
            case .stored(let id), .duplicate(let id):
                return JSONAnswer.response(.ok, encoding: SmallAnswers.Stored(id: id))
            case .rejected(let id):
                logger.warning(
                    "notification rejected", metadata: ["id": "\(id)", "endpoint": "\(endpoint.rawValue)", "reason": "\(incoming.rejection?.words ?? "")"])
                return Problem(status: .badRequest, title: "Rejected", detail: "the notification failed its checks: \(incoming.rejection?.words ?? "")")
                    .response
            }
        } catch {
            logger.error("storing a notification failed; Apple retries", metadata: ["error": "\(ErrorWords.what(error))"])
            // Apple sends it again on any answer but 2xx; a 503 says why.
            return Problem.unavailable("the notification was not stored; retry").response
        }
    }
}

extension NotificationReceipt {
    var name: String {
        switch self {
        case .stored: "stored"
        case .duplicate: "duplicate"
        case .rejected: "rejected"
        }
    }
}
