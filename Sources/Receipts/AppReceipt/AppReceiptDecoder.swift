import Foundation

/// An app receipt as it arrived: the typed payload plus the container it came in.
public struct DecodedAppReceipt: Sendable {
    public let receipt: AppReceipt
    public let container: SignedData

    /// Checks the signature and chain (see `ReceiptSignatureCheck`).
    public func verifySignature(trust: TrustRoots, now: Date = Date()) async -> SignatureVerdict {
        await ReceiptSignatureCheck.verify(container, receipt: receipt, trust: trust, now: now)
    }
}

/// Decodes the app receipt a StoreKit 1 app sends (`Bundle.main.appStoreReceiptURL`): the
/// PKCS#7 container and the ASN.1 payload inside it, without asking Apple.
///
/// ```swift
/// let decoded = try AppReceiptDecoder.decode(base64: receiptFromTheApp)
/// for purchase in decoded.receipt.inAppPurchases { print(purchase.productId ?? "-", purchase.transactionId ?? "-") }
/// let verdict = await decoded.verifySignature(trust: try TrustRoots.load(directory: "/etc/iapdesk/roots"))
/// ```
public enum AppReceiptDecoder {
    /// Decodes a DER or BER app receipt.
    ///
    /// - Parameter der: the receipt's bytes, at most ``AppleDataDetector/maxInputBytes``.
    /// - Returns: the typed payload and the container, whose signature is checked apart
    ///   (``DecodedAppReceipt/verifySignature(trust:now:)``).
    /// - Throws: ``ReceiptError/malformed(_:)`` naming the structure that does not parse (the
    ///   container, a payload attribute, a date); never crashes on hostile bytes (fuzzed).
    public static func decode(der: [UInt8]) throws(ReceiptError) -> DecodedAppReceipt {
        let container = try SignedData(der)
        let receipt = try ReceiptPayloadParser.parse(container.content)
        return DecodedAppReceipt(receipt: receipt, container: container)
    }

    /// Decodes a base64 app receipt, as apps send it and verifyReceipt takes it.
    ///
    /// - Throws: ``ReceiptError/malformed(_:)`` for text that is not base64, and what
    ///   ``decode(der:)`` throws.
    public static func decode(base64: String) throws(ReceiptError) -> DecodedAppReceipt {
        try decode(der: try Base64.decode(base64, what: "app receipt"))
    }
}
