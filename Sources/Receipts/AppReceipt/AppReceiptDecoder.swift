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

public enum AppReceiptDecoder {
    /// Decodes a DER or BER app receipt.
    public static func decode(der: [UInt8]) throws(ReceiptError) -> DecodedAppReceipt {
        let container = try SignedData(der)
        let receipt = try ReceiptPayloadParser.parse(container.content)
        return DecodedAppReceipt(receipt: receipt, container: container)
    }

    /// Decodes a base64 app receipt, as apps send it and verifyReceipt takes it.
    public static func decode(base64: String) throws(ReceiptError) -> DecodedAppReceipt {
        try decode(der: try Base64.decode(base64, what: "app receipt"))
    }
}
