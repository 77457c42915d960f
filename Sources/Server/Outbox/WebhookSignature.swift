import Crypto
import Foundation

/// The webhook signature (the Serving article, "Verifying a webhook"): the header
/// `IAPDesk-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, one
/// `v1` per live secret so a secret can be rotated without a gap. The game recomputes
/// the HMAC with its secret, compares in constant time, and refuses a timestamp more
/// than five minutes away from its clock (a replayed old request): the reference game
/// (`ReferenceGame`) does exactly that, in code of its own.
public enum WebhookSignature {
    public static let header = "IAPDesk-Signature"

    public static func header(body: Data, secrets: [String], at date: Date = Date()) -> String {
        let timestamp = Int64(date.timeIntervalSince1970)
        let signed = Data("\(timestamp).".utf8) + body
        let signatures = secrets.map { secret in
            HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8))).map { String(format: "%02x", $0) }.joined()
        }
        return (["t=\(timestamp)"] + signatures.map { "v1=\($0)" }).joined(separator: ",")
    }
}
