import Foundation

/// Turns the receipt payload (the eContent of the PKCS#7 container) into an `AppReceipt`.
///
/// Payload ::= SET OF SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }; the
/// value holds a DER UTF8String, IA5String or INTEGER, and type 17 holds a nested SET of
/// the same shape for one in-app purchase (Apple's "Receipt Fields").
enum ReceiptPayloadParser {
    static func parse(_ payload: [UInt8]) throws(ReceiptError) -> AppReceipt {
        do {
            return try payload.withUnsafeBufferPointer { buffer in
                let tlv = FastTLV(bytes: buffer)
                let root = try tlv.element(at: 0, limit: buffer.count, depth: 0)
                guard root.tag == 0x31 else { throw ReceiptError.malformed("receipt payload: expected a SET of attributes") }
                var receipt = AppReceipt()
                try forEachAttribute(in: root, tlv, depth: 1) { type, version, value in
                    let field = AttributeValue(tlv: tlv, octets: value, type: type)
                    switch type {
                    case 0: receipt.receiptType = try field.string()
                    case 1: receipt.appItemId = try field.integer()
                    case 2: receipt.bundleId = try field.string()
                    case 3: receipt.appVersion = try field.string()
                    case 4: receipt.opaqueValue = Array(buffer[value.content])
                    case 5: receipt.sha1Hash = Array(buffer[value.content])
                    case 8: receipt.requestDate = try field.date()
                    case 12: receipt.receiptCreationDate = try field.date()
                    case 17: receipt.inAppPurchases.append(try inAppPurchase(value, tlv))
                    case 18: receipt.originalPurchaseDate = try field.date()
                    case 19: receipt.originalApplicationVersion = try field.string()
                    case 21: receipt.expirationDate = try field.date()
                    default: receipt.otherAttributes.append(field.unknown(version: version))
                    }
                }
                return receipt
            }
        } catch let error as ReceiptError {
            throw error
        } catch {
            throw .malformed("receipt payload: \(error)")
        }
    }

    private static func forEachAttribute(
        in set: FastTLV.Element, _ tlv: FastTLV, depth: Int, _ body: (Int64, Int64, FastTLV.Element) throws -> Void
    ) throws {
        var i = set.content.lowerBound
        while i < set.content.upperBound {
            let attribute = try tlv.element(at: i, limit: set.content.upperBound, depth: depth)
            i = attribute.end
            guard attribute.tag == 0x30 else {
                throw ReceiptError.malformed("receipt attribute at byte \(attribute.content.lowerBound): expected a SEQUENCE")
            }
            let limit = attribute.content.upperBound
            let type = try tlv.element(at: attribute.content.lowerBound, limit: limit, depth: depth + 1)
            let version = try tlv.element(at: type.end, limit: limit, depth: depth + 1)
            let value = try tlv.element(at: version.end, limit: limit, depth: depth + 1)
            guard type.tag == 0x02, version.tag == 0x02, value.tag == 0x04 else {
                throw ReceiptError.malformed("receipt attribute at byte \(attribute.content.lowerBound): expected INTEGER, INTEGER, OCTET STRING")
            }
            try body(try tlv.int64(type), try tlv.int64(version), value)
        }
    }

    private static func inAppPurchase(_ value: FastTLV.Element, _ tlv: FastTLV) throws -> InAppPurchase {
        let set = try tlv.element(at: value.content.lowerBound, limit: value.content.upperBound, depth: 3)
        guard set.tag == 0x31 else { throw ReceiptError.malformed("in-app purchase at byte \(value.content.lowerBound): expected a SET") }
        var purchase = InAppPurchase()
        try forEachAttribute(in: set, tlv, depth: 4) { type, version, value in
            let field = AttributeValue(tlv: tlv, octets: value, type: type)
            switch type {
            case 1701: purchase.quantity = try field.integer()
            case 1702: purchase.productId = try field.string()
            case 1703: purchase.transactionId = try field.string()
            case 1704: purchase.purchaseDate = try field.date()
            case 1705: purchase.originalTransactionId = try field.string()
            case 1706: purchase.originalPurchaseDate = try field.date()
            case 1707: purchase.productType = try field.integer()
            case 1708: purchase.expiresDate = try field.date()
            case 1711: purchase.webOrderLineItemId = try field.integer()
            case 1712: purchase.cancellationDate = try field.date()
            case 1713: purchase.isTrialPeriod = try field.integer() != 0
            case 1719: purchase.isInIntroOfferPeriod = try field.integer() != 0
            case 1721: purchase.promotionalOfferId = try field.string()
            default: purchase.otherAttributes.append(field.unknown(version: version))
            }
        }
        return purchase
    }
}

/// The DER value inside an attribute's OCTET STRING, read as the field's type demands.
private struct AttributeValue {
    let tlv: FastTLV
    let octets: FastTLV.Element
    let type: Int64

    private static let utf8String: UInt8 = 0x0C, ia5String: UInt8 = 0x16, integer: UInt8 = 0x02

    private func inner() throws -> FastTLV.Element {
        do {
            let element = try tlv.element(at: octets.content.lowerBound, limit: octets.content.upperBound, depth: 6)
            guard element.end == octets.content.upperBound else {
                throw ReceiptError.malformed("attribute \(type): trailing bytes after its value")
            }
            return element
        } catch let error as BERError {
            throw ReceiptError.malformed("attribute \(type): \(error)")
        }
    }

    func string() throws -> String {
        let element = try inner()
        guard element.tag == Self.utf8String || element.tag == Self.ia5String else {
            throw ReceiptError.malformed("attribute \(type): expected a string")
        }
        return tlv.string(element)
    }

    func integer() throws -> Int64 {
        let element = try inner()
        guard element.tag == Self.integer else { throw ReceiptError.malformed("attribute \(type): expected an INTEGER") }
        return try tlv.int64(element)
    }

    /// Nil for an empty string: Apple's way of saying "no date" (e.g. not cancelled).
    func date() throws -> Date? {
        let element = try inner()
        guard element.tag == Self.ia5String || element.tag == Self.utf8String else {
            throw ReceiptError.malformed("attribute \(type): expected a date string")
        }
        if element.content.isEmpty { return nil }
        let text = UnsafeBufferPointer(rebasing: tlv.bytes[element.content])
        guard let date = RFC3339.parse(text) else {
            throw ReceiptError.malformed("attribute \(type): not an RFC 3339 date: \(String(decoding: text.prefix(40), as: UTF8.self))")
        }
        return date
    }

    func unknown(version: Int64) -> ReceiptAttribute {
        var text: String?
        if let element = try? inner() {
            if element.tag == Self.utf8String || element.tag == Self.ia5String {
                text = tlv.string(element)
            } else if element.tag == Self.integer, let value = try? tlv.int64(element) {
                text = String(value)
            }
        }
        return ReceiptAttribute(type: type, version: version, text: text, byteCount: octets.content.count)
    }
}
