import Crypto
import Foundation

/// How a game checks iapdesk's webhook signature — the Serving article's recipe, written here as a
/// game would write it, without iapdesk's own code:
/// 1. read `t` and every `v1` from `IAPDesk-Signature: t=…,v1=…[,v1=…]`;
/// 2. refuse a `t` more than five minutes from now (a replay of an old request);
/// 3. compute HMAC-SHA256(secret, "<t>.<raw body>") and accept if any `v1` equals it,
///    compared in constant time.
public enum SignatureCheck {
    public static let tolerance: Int64 = 300

    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case missing, malformed, stale(seconds: Int64), mismatch
        public var description: String {
            switch self {
            case .missing: "no IAPDesk-Signature header"
            case .malformed: "the IAPDesk-Signature header is not t=…,v1=…"
            case .stale(let seconds): "the signature is \(seconds) s old or early (a replay?)"
            case .mismatch: "no v1 signature matches the body"
            }
        }
    }

    public static func verify(header: String?, body: Data, secret: String, now: Date = Date()) throws(Refusal) {
        guard let header else { throw .missing }
        var timestamp: Int64?
        var signatures: [Data] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { throw .malformed }
            switch pair[0] {
            case "t": timestamp = Int64(pair[1])
            case "v1": if let bytes = hexBytes(pair[1]) { signatures.append(bytes) }
            default: continue
            }
        }
        guard let timestamp, !signatures.isEmpty else { throw .malformed }
        let age = Int64(now.timeIntervalSince1970) - timestamp
        guard abs(age) <= tolerance else { throw .stale(seconds: age) }
        let signed = Data("\(timestamp).".utf8) + body
        let key = SymmetricKey(data: Data(secret.utf8))
        // isValidAuthenticationCode compares in constant time.
        guard signatures.contains(where: { HMAC<SHA256>.isValidAuthenticationCode($0, authenticating: signed, using: key) }) else { throw .mismatch }
    }

    private static func hexBytes(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data(capacity: digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
