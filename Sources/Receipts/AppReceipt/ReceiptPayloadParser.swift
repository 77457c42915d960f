import Foundation

/// Turns the receipt payload (the eContent of the PKCS#7 container) into an `AppReceipt`.
///
/// Payload ::= SET OF SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }; the
/// value holds a DER UTF8String, IA5String or INTEGER, and type 17 holds a nested SET of
/// the same shape for one in-app purchase (Apple's "Receipt Fields").
enum ReceiptPayloadParser {
    static func parse(_ payload: [UInt8]) throws(ReceiptError) -> AppReceipt {
        let reader = BERReader(payload)
        var receipt = AppReceipt()
        do {
            let root = try reader.root()
            try reader.expect(root, .set, "the receipt payload's SET of attributes")
            try forEachAttribute(in: root, reader: reader) { type, version, value in
                try apply(type: type, version: version, value: value, reader: reader, to: &receipt)
            }
        } catch let error as ReceiptError {
            throw error
        } catch let error as BERError {
            throw .malformed("receipt payload: \(error)")
        } catch {
            throw .malformed("receipt payload: \(error)")
        }
        return receipt
    }

    private static func forEachAttribute(
        in set: BERElement, reader: BERReader, depth: Int = 1,
        _ body: (Int64, Int64, BERElement) throws -> Void
    ) throws {
        try reader.forEachChild(of: set, depth: depth) { attribute in
            try reader.expect(attribute, .sequence, "an attribute SEQUENCE")
            var fields: (BERElement?, BERElement?, BERElement?) = (nil, nil, nil)
            var index = 0
            try reader.forEachChild(of: attribute, depth: depth + 1) { field in
                switch index {
                case 0: fields.0 = field
                case 1: fields.1 = field
                case 2: fields.2 = field
                default: break
                }
                index += 1
            }
            guard let typeElement = fields.0, let versionElement = fields.1, let value = fields.2 else {
                throw ReceiptError.malformed("receipt attribute at byte \(attribute.encoded.lowerBound) has \(index) fields, expected 3")
            }
            try reader.expect(typeElement, .integer, "an attribute type INTEGER")
            try reader.expect(value, .octetString, "an attribute value OCTET STRING")
            try body(try reader.int64(typeElement), try reader.int64(versionElement), value)
        }
    }

    private static func apply(
        type: Int64, version: Int64, value: BERElement, reader: BERReader, to receipt: inout AppReceipt
    ) throws {
        let field = AttributeValue(reader: reader, octets: value, type: type)
        switch type {
        case 0: receipt.receiptType = try field.string()
        case 1: receipt.appItemId = try field.integer()
        case 2: receipt.bundleId = try field.string()
        case 3: receipt.appVersion = try field.string()
        case 4: receipt.opaqueValue = Array(reader.bytes[value.content])
        case 5: receipt.sha1Hash = Array(reader.bytes[value.content])
        case 8: receipt.requestDate = try field.date()
        case 12: receipt.receiptCreationDate = try field.date()
        case 17: receipt.inAppPurchases.append(try inAppPurchase(value, reader: reader))
        case 18: receipt.originalPurchaseDate = try field.date()
        case 19: receipt.originalApplicationVersion = try field.string()
        case 21: receipt.expirationDate = try field.date()
        default: receipt.otherAttributes.append(field.unknown(version: version))
        }
    }

    private static func inAppPurchase(_ value: BERElement, reader: BERReader) throws -> InAppPurchase {
        let set = try reader.element(at: value.content.lowerBound, limit: value.content.upperBound, depth: 3)
        try reader.expect(set, .set, "an in-app purchase SET")
        var purchase = InAppPurchase()
        try forEachAttribute(in: set, reader: reader, depth: 4) { type, version, value in
            let field = AttributeValue(reader: reader, octets: value, type: type)
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
    let reader: BERReader
    let octets: BERElement
    let type: Int64

    private func inner() throws -> BERElement {
        do {
            let element = try reader.element(at: octets.content.lowerBound, limit: octets.content.upperBound, depth: 6)
            guard element.encoded.upperBound == octets.content.upperBound else {
                throw ReceiptError.malformed("attribute \(type): trailing bytes after its value")
            }
            return element
        } catch let error as BERError {
            throw ReceiptError.malformed("attribute \(type): \(error)")
        }
    }

    func string() throws -> String {
        let element = try inner()
        guard element.tag == .utf8String || element.tag == .ia5String else {
            throw ReceiptError.malformed("attribute \(type): expected a string")
        }
        return String(decoding: reader.bytes[element.content], as: UTF8.self)
    }

    func integer() throws -> Int64 {
        let element = try inner()
        guard element.tag == .integer else { throw ReceiptError.malformed("attribute \(type): expected an INTEGER") }
        return try reader.int64(element)
    }

    /// Nil for an empty string: Apple's way of saying "no date" (e.g. not cancelled).
    func date() throws -> Date? {
        let element = try inner()
        guard element.tag == .ia5String || element.tag == .utf8String else {
            throw ReceiptError.malformed("attribute \(type): expected a date string")
        }
        let text = reader.bytes[element.content]
        if text.isEmpty { return nil }
        guard let date = RFC3339.parse(text) else {
            throw ReceiptError.malformed("attribute \(type): not an RFC 3339 date: \(String(decoding: text.prefix(40), as: UTF8.self))")
        }
        return date
    }

    func unknown(version: Int64) -> ReceiptAttribute {
        let content = reader.bytes[octets.content]
        var text: String?
        if let element = try? inner() {
            if element.tag == .utf8String || element.tag == .ia5String {
                text = String(decoding: reader.bytes[element.content], as: UTF8.self)
            } else if element.tag == .integer, let value = try? reader.int64(element) {
                text = String(value)
            }
        }
        return ReceiptAttribute(type: type, version: version, text: text, byteCount: content.count)
    }
}
