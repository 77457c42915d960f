import Foundation

/// Any piece of Apple data an operator may paste into iapdesk, recognised by its shape.
public enum AppleData: Sendable {
    /// A PKCS#7 app receipt (base64 or DER).
    case appReceipt(DecodedAppReceipt)
    /// An iOS 6 transaction receipt (signed property list).
    case transactionReceipt(TransactionReceipt)
    /// A verifyReceipt answer.
    case verifyReceiptResponse(VerifyReceiptResponse)
    /// A compact JWS: a transaction, renewal info, app transaction or V2 notification.
    case jws(JWS, JWSKind)
    /// JSON holding signed data: a notification's `{"signedPayload": …}` or a Server API
    /// answer (`signedTransactionInfo`, `signedTransactions`, `lastTransactions`…). Each JWS
    /// found is listed with where it sat in the JSON.
    case signedJSON([SignedField])
    /// A decoded payload pasted as plain JSON (a transaction, renewal info, notification):
    /// readable, but there is no signature left to check.
    case unsignedPayload([UInt8], JWSKind)
    /// An App Store Server Notification V1 (`notification_type`, `unified_receipt`).
    case notificationV1(type: String, unifiedReceipt: VerifyReceiptResponse?)
    /// A Server API error answer (`errorCode`, `errorMessage`).
    case serverAPIError(code: Int64, message: String?)

    public var kindName: String {
        switch self {
        case .appReceipt: "app receipt (PKCS#7)"
        case .transactionReceipt: "iOS 6 transaction receipt"
        case .verifyReceiptResponse: "verifyReceipt answer"
        case .jws(_, let kind): "JWS \(kind.rawValue)"
        case .signedJSON: "JSON with signed data"
        case .unsignedPayload(_, let kind): "unsigned \(kind.rawValue) payload (JSON)"
        case .notificationV1: "server notification V1"
        case .serverAPIError: "App Store Server API error"
        }
    }
}

/// Which Apple payload a JWS carries, told apart by its fields.
public enum JWSKind: String, Sendable, Encodable {
    case transaction, renewalInfo = "renewal info", appTransaction = "app transaction"
    case notification, unknown

    static func of(_ jws: JWS) -> JWSKind {
        guard let object = try? JSONSerialization.jsonObject(with: Data(jws.payload)) as? [String: Any] else { return .unknown }
        return of(object)
    }

    static func of(_ object: [String: Any]) -> JWSKind {
        if object["notificationType"] != nil { return .notification }
        if object["autoRenewStatus"] != nil || object["autoRenewProductId"] != nil { return .renewalInfo }
        if object["transactionId"] != nil { return .transaction }
        if object["appAppleId"] != nil || object["receiptType"] != nil || object["applicationVersion"] != nil { return .appTransaction }
        return .unknown
    }
}

/// One `signed…` string of a JSON answer: a JWS, or a placeholder that is not one.
public struct SignedField: Sendable {
    public var path: String
    public var jws: JWS?
    public var kind: JWSKind
    public var text: String
}

/// Tells what a pasted or submitted blob is (an app receipt, a StoreKit 2 JWS, a
/// verifyReceipt or App Store Server API answer, a notification, an old transaction
/// receipt) and decodes it: what `iapdesk receipt decode` and the receipt screen start from.
public enum AppleDataDetector {
    /// Inputs larger than this are refused before parsing (the largest real receipt is ~80 KB).
    public static let maxInputBytes = 8 << 20

    /// Detects and decodes `input`.
    ///
    /// - Parameter input: bytes as they arrived: DER, base64, JSON or a compact JWS, with
    ///   surrounding whitespace.
    /// - Returns: the decoded data; signatures are checked apart
    ///   (``ReceiptDocumentBuilder/build(_:trust:now:)`` checks every one).
    /// - Throws: ``ReceiptError/unrecognized(_:)`` for input that is no Apple data (or too
    ///   large), ``ReceiptError/malformed(_:)`` for input that starts like one and breaks.
    ///
    /// ```swift
    /// let data = try AppleDataDetector.detect(Array(pasted.utf8))
    /// let document = await ReceiptDocumentBuilder.build(data, trust: trust)
    /// ```
    public static func detect(_ input: [UInt8]) throws(ReceiptError) -> AppleData {
        guard input.count <= maxInputBytes else { throw .unrecognized("input is \(input.count) bytes; the limit is \(maxInputBytes)") }
        if input.first == 0x30 { return .appReceipt(try AppReceiptDecoder.decode(der: input)) }
        let text = String(String(decoding: input, as: UTF8.self).trimmedOfWhitespace)
        guard let first = text.first else { throw .unrecognized("the input is empty") }
        if first == "{" {
            if let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] {
                return try json(object, bytes: Array(text.utf8))
            }
            if text.contains("\" = \"") { return .transactionReceipt(try TransactionReceipt(bytes: Array(text.utf8))) }
            throw .malformed("input starts like JSON but is not valid JSON")
        }
        if text.hasPrefix("eyJ"), text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).count == 3 {
            let jws = try JWS(compact: text)
            return .jws(jws, JWSKind.of(jws))
        }
        let decoded = try Base64.decode(text, what: "input")
        if decoded.first == 0x30 { return .appReceipt(try AppReceiptDecoder.decode(der: decoded)) }
        if decoded.first == UInt8(ascii: "{") { return .transactionReceipt(try TransactionReceipt(bytes: decoded)) }
        throw .unrecognized("base64 that decodes to neither a PKCS#7 receipt nor a transaction receipt")
    }

    private static func json(_ object: [String: Any], bytes: [UInt8]) throws(ReceiptError) -> AppleData {
        if object["status"] != nil, object["signedTransactions"] == nil, object["data"] == nil {
            return .verifyReceiptResponse(try VerifyReceiptResponse.decode(bytes))
        }
        if let code = object["errorCode"] as? NSNumber {
            return .serverAPIError(code: code.int64Value, message: object["errorMessage"] as? String)
        }
        if let type = object["notification_type"] as? String {
            var unified: VerifyReceiptResponse?
            if let inner = object["unified_receipt"],
                let data = try? JSONSerialization.data(withJSONObject: inner)
            {
                unified = try VerifyReceiptResponse.decode(Array(data))
            }
            return .notificationV1(type: type, unifiedReceipt: unified)
        }
        if JWSKind.of(object) == .notification {
            return .unsignedPayload(bytes, .notification)
        }
        var found: [SignedField] = []
        collect(object, path: "", into: &found, depth: 0)
        if !found.isEmpty { return .signedJSON(found) }
        let kind = JWSKind.of(object)
        guard kind != .unknown else { throw .unrecognized("JSON without a verifyReceipt status, signed data or Apple payload fields") }
        return .unsignedPayload(bytes, kind)
    }

    /// Finds every string in the JSON that is a JWS, with its path (`data[0].lastTransactions[1].signedRenewalInfo`).
    private static func collect(_ value: Any, path: String, into found: inout [SignedField], depth: Int) {
        guard depth < 32 else { return }
        switch value {
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                collect(object[key] as Any, path: path.isEmpty ? key : "\(path).\(key)", into: &found, depth: depth + 1)
            }
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                collect(element, path: "\(path)[\(index)]", into: &found, depth: depth + 1)
            }
        case let string as String:
            let key = path.split(separator: ".").last.map { String($0.prefix { $0 != "[" }) } ?? ""
            if let jws = try? JWS(compact: string) {
                found.append(SignedField(path: path, jws: jws, kind: JWSKind.of(jws), text: string))
            } else if key.hasPrefix("signed") {
                found.append(SignedField(path: path, jws: nil, kind: .unknown, text: string))
            }
        default:
            break
        }
    }
}
