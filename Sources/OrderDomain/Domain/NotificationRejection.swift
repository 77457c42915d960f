import Foundation

/// Why a notification (Apple's signed payload, or Google's Pub/Sub push) failed its checks,
/// as a value: decided where it is checked, kept with the notification, and said in words
/// by Presentation. What a library said of a signature it refused travels as its own text.
public enum NotificationRejection: Sendable, Equatable, StoredJSON {
    // Apple's signed payloads.
    /// The body is not `{"signedPayload": …}`.
    case notSignedPayloadBody
    /// `signedPayload` is not a compact JWS.
    case notSigned(String)
    /// The signature, chain or marker OIDs did not verify.
    case signatureRefused(String)
    /// For an app the store does not serve (nil: it names none).
    case otherApp(String?, served: [String])
    /// Signed for one environment and sent to the other's URL.
    case wrongEnvironment(signed: String, endpoint: AppleEnvironment)
    /// Its signed transaction lacks an id, a product or a purchase date.
    case transactionIncomplete
    /// A payload inside the verified notification did not verify.
    case insideRefused(String)

    // Google's Pub/Sub pushes.
    case notPubSubPush
    case noMessageId
    /// Its `data` is not a base64 JSON DeveloperNotification.
    case notDeveloperNotification
    /// About another package (nil: it names none).
    case otherPackage(String?)
    case malformedPurchaseToken

    /// Kept before rejections were values: only their words are known.
    case words(String)

    /// As the store keeps it in a notification's `rejection` column.
    public var storedText: String {
        get throws {
            if case .words(let words) = self { return words }
            return try json()
        }
    }

    /// A stored rejection: JSON for a value, words for one kept before.
    public init(storedText: String) {
        self = Self.unlessWords(storedText) ?? .words(storedText)
    }
}
