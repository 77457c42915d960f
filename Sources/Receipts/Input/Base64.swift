import Foundation

/// Strict base64 for receipts: whitespace and line breaks are tolerated (receipts get
/// pasted from mail and logs), anything else outside the alphabet is an error.
enum Base64 {
    static func decode(_ text: String, what: String) throws(ReceiptError) -> [UInt8] {
        var cleaned = text.filter { !$0.isWhitespace }
        guard !cleaned.isEmpty else { throw .malformed("\(what): empty input") }
        if cleaned.count % 4 != 0 { cleaned += String(repeating: "=", count: 4 - cleaned.count % 4) }
        guard let data = Data(base64Encoded: cleaned) else {
            throw .malformed("\(what): not valid base64")
        }
        return Array(data)
    }

    /// base64url without padding, as JWS uses.
    static func decodeURL(_ text: Substring, what: String) throws(ReceiptError) -> [UInt8] {
        var standard = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if standard.count % 4 != 0 { standard += String(repeating: "=", count: 4 - standard.count % 4) }
        guard !text.isEmpty, let data = Data(base64Encoded: standard) else {
            throw .malformed("\(what): not valid base64url")
        }
        return Array(data)
    }
}
