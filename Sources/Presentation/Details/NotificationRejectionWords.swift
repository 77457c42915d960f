import OrderDomain

/// Why a notification failed its checks, in words: on its page, in the lists, in `serve`'s
/// log line and in the problem details the sender receives.
extension NotificationRejection {
    public var words: String {
        switch self {
        case .notSignedPayloadBody: #"the body is not {"signedPayload": "…"}"#
        case .notSigned(let error): "not a signed payload: \(error)"
        case .signatureRefused(let error): error
        case .otherApp(let app, let served): "for the app \(app ?? "(none named)"), which this store does not serve (\(served.joined(separator: ", ")))"
        case .wrongEnvironment(let signed, let endpoint): "a \(signed) notification came to the \(endpoint.rawValue) URL"
        case .transactionIncomplete: "its transaction lacks an id, product or purchase date"
        case .insideRefused(let error): "inside a valid notification: \(error)"
        case .notPubSubPush: "not a Pub/Sub push"
        case .noMessageId: "the push names no message id"
        case .notDeveloperNotification: "its data is not a base64 JSON DeveloperNotification"
        case .otherPackage(let package): "about \(package ?? "no package"), not this studio's"
        case .malformedPurchaseToken: "its purchase token is malformed"
        case .words(let words): words
        }
    }
}
