import Foundation
import GooglePlay
import Hummingbird
import Logging
import NIOCore
import OrderDomain
import OrderStore
import Presentation

/// Google Play's real-time developer notifications, as Cloud Pub/Sub pushes them:
/// `POST /google/notifications`. The push's OIDC token is checked first (``PushTokenVerifier``):
/// a forged or expired one is refused with 401 and nothing is stored. An authentic push is
/// stored before the 2xx (R1), group-committed with those arriving meanwhile, once per
/// Pub/Sub message id (a redelivery, or a replay of a captured push, stores nothing new). A
/// message about another package or one that does not read is kept for operators (bounded)
/// and still answered 2xx: Pub/Sub would otherwise redeliver it for a week.
struct PlayNotificationRoutes: Sendable {
    let verifier: PushTokenVerifier
    let decoder: PlayNotificationDecoder
    let metrics: ServeMetrics
    let logger: Logger
    let storing: GroupCommit<IncomingNotification, NotificationReceipt>

    init(store: OrderStore, verifier: PushTokenVerifier, packageNames: [String], metrics: ServeMetrics, logger: Logger) {
        self.verifier = verifier
        decoder = PlayNotificationDecoder(packageNames: packageNames)
        self.metrics = metrics
        self.logger = logger
        storing = GroupCommit(concurrency: store.concurrentWriters) { batch in
            try await CallPriority.answering { try await store.notifications.receive(all: batch) }
        }
    }

    /// A push is a few KB (Pub/Sub's limit is 10 MB, Play's messages are tiny).
    static let maxBody = 64 * 1024

    func add(to router: Router<ServeContext>) {
        router.post("/google/notifications") { request, _ in await receive(request) }
    }

    private func receive(_ request: Request) async -> Response {
        if let refusal = await verifier.refusal(authorization: request.headers[.authorization]) {
            metrics.notification(type: nil, result: "refused")
            logger.warning("Google Play push refused", metadata: ["reason": "\(refusal)"])
            return Problem(status: .unauthorized, title: "Unauthorized", detail: "the push token failed its checks: \(refusal)").response
        }
        let bytes: ByteBuffer
        do {
            bytes = try await request.body.collect(upTo: Self.maxBody)
        } catch {
            return Problem(status: .contentTooLarge, title: "Content too large", detail: "a push is at most \(Self.maxBody) bytes").response
        }
        let incoming = decoder.decode(push: String(decoding: bytes.readableBytesView, as: UTF8.self))
        do {
            let receipt = try await storing.submit(incoming)
            metrics.notification(type: incoming.rejection == nil ? incoming.facts.type : nil, result: receipt.name)
            switch receipt {
            case .stored(let id), .duplicate(let id):
                return JSONAnswer.response(.ok, encoding: SmallAnswers.Stored(id: id))
            case .rejected(let id):
                logger.warning("Google Play notification kept as rejected", metadata: ["id": "\(id)", "reason": "\(incoming.rejection?.words ?? "")"])
                return JSONAnswer.response(.ok, encoding: SmallAnswers.Stored(id: id))
            }
        } catch {
            logger.error("storing a Google Play notification failed; Pub/Sub redelivers", metadata: ["error": "\(ErrorWords.what(error))"])
            return Problem.unavailable("the notification was not stored; retry").response
        }
    }
}
