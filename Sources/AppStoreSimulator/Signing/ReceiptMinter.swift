import Foundation
import Receipts
@_spi(CMS) import X509

/// Mints app receipts the way Apple does: the attribute payload (Apple's
/// "Receipt Fields") in a PKCS#7 SignedData signed by the simulator's leaf, with the
/// leaf, intermediate and root embedded.
public struct ReceiptMinter: Sendable {
    public let authority: CertificateAuthority

    public init(authority: CertificateAuthority) { self.authority = authority }

    /// A base64 app receipt holding `receipt`.
    public func mint(_ receipt: AppReceipt) throws -> String {
        let payload = ReceiptPayloadEncoder.encode(receipt)
        let signed = try CMS.sign(
            payload, signatureAlgorithm: .ecdsaWithSHA256,
            additionalIntermediateCertificates: [authority.intermediate, authority.root],
            certificate: authority.leaf, privateKey: .init(authority.leafKey), detached: false)
        return Data(signed).base64EncodedString()
    }
}

/// DER for the receipt payload: SET OF SEQUENCE { type, version, OCTET STRING value }.
enum ReceiptPayloadEncoder {
    static func encode(_ receipt: AppReceipt) -> [UInt8] {
        var attributes: [[UInt8]] = []
        func add(_ type: Int64, _ value: [UInt8]?) {
            if let value { attributes.append(attribute(type, value)) }
        }
        add(0, receipt.receiptType.map(utf8))
        add(1, receipt.appItemId.map(integer))
        add(2, receipt.bundleId.map(utf8))
        add(3, receipt.appVersion.map(utf8))
        add(4, receipt.opaqueValue.map { Array($0) })
        add(5, receipt.sha1Hash.map { Array($0) })
        add(12, receipt.receiptCreationDate.map(date))
        add(18, receipt.originalPurchaseDate.map(date))
        add(19, receipt.originalApplicationVersion.map(utf8))
        add(21, receipt.expirationDate.map(date))
        for purchase in receipt.inAppPurchases { add(17, inApp(purchase)) }
        return tlv(0x31, attributes.flatMap { $0 })
    }

    private static func inApp(_ p: InAppPurchase) -> [UInt8] {
        var attributes: [[UInt8]] = []
        func add(_ type: Int64, _ value: [UInt8]?) {
            if let value { attributes.append(attribute(type, value)) }
        }
        add(1701, p.quantity.map(integer))
        add(1702, p.productId.map(utf8))
        add(1703, p.transactionId.map(utf8))
        add(1704, p.purchaseDate.map(date))
        add(1705, p.originalTransactionId.map(utf8))
        add(1706, p.originalPurchaseDate.map(date))
        add(1707, p.productType.map(integer))
        add(1708, p.expiresDate.map(date))
        add(1711, p.webOrderLineItemId.map(integer))
        // Like Apple: an empty 1712 when not cancelled.
        add(1712, p.cancellationDate.map(date) ?? tlv(0x16, []))
        add(1713, p.isTrialPeriod.map { integer($0 ? 1 : 0) })
        add(1719, p.isInIntroOfferPeriod.map { integer($0 ? 1 : 0) })
        add(1721, p.promotionalOfferId.map(utf8))
        return tlv(0x31, attributes.flatMap { $0 })
    }

    private static func attribute(_ type: Int64, _ value: [UInt8]) -> [UInt8] {
        tlv(0x30, integer(type) + integer(1) + tlv(0x04, value))
    }

    static func utf8(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }

    static func date(_ date: Date) -> [UInt8] {
        let seconds = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        return tlv(0x16, Array(seconds.formatted(.iso8601).utf8))
    }

    /// Minimal two's-complement big-endian INTEGER.
    static func integer(_ value: Int64) -> [UInt8] {
        var bytes = withUnsafeBytes(of: value.bigEndian, Array.init)
        while bytes.count > 1, (bytes[0] == 0 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xFF && bytes[1] & 0x80 != 0) {
            bytes.removeFirst()
        }
        return tlv(0x02, bytes)
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8]
        if content.count < 0x80 {
            length = [UInt8(content.count)]
        } else {
            var count = content.count
            length = []
            while count > 0 {
                length.insert(UInt8(count & 0xFF), at: 0)
                count >>= 8
            }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + content
    }
}
