import Foundation
import X509

/// An iOS 6 `SKPaymentTransaction.transactionReceipt`: a signed property list whose
/// `purchase-info` holds one transaction. Deprecated by Apple, still found in old stores.
public struct TransactionReceipt: Sendable, Equatable {
    public var environment: String?
    /// Every field of `purchase-info`, in Apple's order, for the raw view.
    public var fields: [Field]
    public var transactionId: String?
    public var originalTransactionId: String?
    public var productId: String?
    public var bundleId: String?
    public var quantity: Int64?
    public var purchaseDate: Date?
    public var originalPurchaseDate: Date?
    public var expiresDate: Date?
    public var webOrderLineItemId: String?
    let signature: [UInt8]?
    let purchaseInfo: [UInt8]

    public struct Field: Sendable, Equatable, Encodable {
        public var key: String
        public var value: String
    }

    public init(bytes: [UInt8]) throws(ReceiptError) {
        let outer = Dictionary(try NeXTStepPlist.parse(bytes), uniquingKeysWith: { first, _ in first })
        guard let info = outer["purchase-info"] else {
            throw .malformed("transaction receipt: no purchase-info")
        }
        purchaseInfo = try Base64.decode(info, what: "purchase-info")
        let pairs = try NeXTStepPlist.parse(purchaseInfo)
        fields = pairs.map { Field(key: $0.key, value: $0.value) }
        let map = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        environment = outer["environment"]
        signature = try outer["signature"].map { text throws(ReceiptError) in try Base64.decode(text, what: "signature") }
        transactionId = map["transaction-id"]
        originalTransactionId = map["original-transaction-id"]
        productId = map["product-id"]
        bundleId = map["bid"]
        quantity = map["quantity"].flatMap { Int64($0) }
        purchaseDate = Self.date(map, "purchase-date")
        originalPurchaseDate = Self.date(map, "original-purchase-date")
        expiresDate = Self.date(map, "expires-date")
        webOrderLineItemId = map["web-order-line-item-id"]
    }

    private static func date(_ map: [String: String], _ name: String) -> Date? {
        if let ms = map[name + "-ms"].flatMap(Double.init) { return Date(timeIntervalSince1970: ms / 1000) }
        if let text = map[name] {
            if let ms = Double(text) { return Date(timeIntervalSince1970: ms / 1000) }
            return AppleDateText.parse(text)
        }
        return map[name + "-formatted"].flatMap(AppleDateText.parse)
    }

    /// The signature blob is `version(1) ‖ RSA signature ‖ length(4) ‖ certificate`, over
    /// `version ‖ purchase-info`. iapdesk checks it against the embedded certificate; the
    /// chain cannot be built, because the blob omits Apple's iTunes Store intermediate.
    public func verifySignature() -> SignatureVerdict {
        guard let blob = signature else {
            return .unverified("the receipt carries no signature (a test or synthetic receipt)")
        }
        guard let version = blob.first, version == 2 || version == 3 else {
            return .unverified("unknown signature blob version")
        }
        let signatureLength = version == 2 ? 128 : 256
        let lengthOffset = 1 + signatureLength
        guard blob.count >= lengthOffset + 4 else { return .unverified("signature blob is truncated") }
        let certificateLength = blob[lengthOffset..<lengthOffset + 4].reduce(0) { $0 << 8 | Int($1) }
        let certificateStart = lengthOffset + 4
        guard certificateLength > 0, blob.count - certificateStart >= certificateLength else {
            return .unverified("signature blob is truncated")
        }
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: Array(blob[certificateStart..<certificateStart + certificateLength]))
        } catch {
            // Apple's 2009 receipt certificate has a 1024-bit RSA key, which swift-crypto refuses to load.
            return .unverified("the embedded certificate cannot be loaded (\(error)); ask verifyReceipt", digest: "SHA-1")
        }
        let signedBytes = [version] + purchaseInfo
        let signatureBytes = Array(blob[1..<lengthOffset])
        guard certificate.publicKey.isValidSignature(signatureBytes, for: signedBytes, signatureAlgorithm: .sha1WithRSAEncryption) else {
            return .unverified("the signature does not match purchase-info: altered or forged", chain: [certificate], digest: "SHA-1")
        }
        return .unverified(
            "signature matches its embedded certificate (\(CertificateSummary.commonName(certificate.subject))), but the chain to Apple's root cannot be built from an iOS 6 receipt; ask verifyReceipt",
            chain: [certificate], digest: "SHA-1")
    }
}
