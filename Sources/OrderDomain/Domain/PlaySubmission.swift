import Foundation

/// A Google Play purchase as the game server submits it for an order: the package and
/// product it was bought in, its purchase token, and optionally what the client holds (the
/// signed purchase JSON and its signature, kept as evidence) and whether the game wants a
/// consumable consumed once delivered (so the player can buy it again). Stored as the
/// submission's receipt data (`{"google_play": {…}}`, kind `google_play`), so that R1 keeps
/// it like an Apple receipt.
public struct PlaySubmission: Sendable, Equatable, Codable {
    public var packageName: String
    /// The product the game says it sold; nil leaves it to the order's (R5 checks Google's
    /// answer against the order either way).
    public var productId: String?
    public var purchaseToken: String
    public var purchaseJSON: String?
    public var signature: String?
    public var consume: Bool

    public init(
        packageName: String, productId: String? = nil, purchaseToken: String, purchaseJSON: String? = nil, signature: String? = nil, consume: Bool = false
    ) {
        self.packageName = packageName
        self.productId = productId
        self.purchaseToken = purchaseToken
        self.purchaseJSON = purchaseJSON
        self.signature = signature
        self.consume = consume
    }

    package enum CodingKeys: String, CodingKey {
        case packageName = "package_name", productId = "product_id", purchaseToken = "purchase_token", purchaseJSON = "purchase_json", signature
        case consume
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        packageName = try c.decode(String.self, forKey: .packageName)
        productId = try c.decodeIfPresent(String.self, forKey: .productId)
        purchaseToken = try c.decode(String.self, forKey: .purchaseToken)
        purchaseJSON = try c.decodeIfPresent(String.self, forKey: .purchaseJSON)
        signature = try c.decodeIfPresent(String.self, forKey: .signature)
        consume = try c.decodeIfPresent(Bool.self, forKey: .consume) ?? false
    }

    private struct Envelope: Codable {
        var purchase: PlaySubmission
        enum CodingKeys: String, CodingKey { case purchase = "google_play" }
    }

    /// The text kept as the submission's receipt data.
    public var storedText: String {
        get throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(Envelope(purchase: self)), as: UTF8.self)
        }
    }

    /// The Play purchase a Google Play submission's stored text holds.
    /// - Throws: ``StoreError/corrupt(_:)`` when it does not decode (changed outside iapdesk).
    public init(storedText: String) throws {
        do {
            self = try JSONDecoder().decode(Envelope.self, from: Data(storedText.utf8)).purchase
        } catch {
            throw StoreError.corrupt("a Google Play submission's stored purchase does not decode: \(error)")
        }
    }

    /// Google's purchase tokens are opaque, URL-safe and a few hundred characters at most.
    public static func isPlausibleToken(_ token: String) -> Bool {
        (10...4096).contains(token.utf8.count)
            && token.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.:".unicodeScalars.contains($0)) }
    }
}
