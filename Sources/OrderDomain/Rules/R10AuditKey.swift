import Crypto
import Foundation

/// R10, anchored: a key kept outside the store. The hash chain alone shows accidental
/// damage, but whoever can write the database can recompute it. With a key, every entry
/// also carries an HMAC of its chain hash (which covers every entry before it), and the
/// audit head an HMAC of where the log ends, so an edit, an insertion, a forged entry or
/// a truncated log with its head moved back cannot be made to verify without the key.
///
/// The key never leaves this value: no description prints it, and the store keeps only
/// its fingerprint, to tell "another key" from "changed by hand".
public struct AuditKey: Sendable, Equatable, CustomStringConvertible {
    private let key: SymmetricKey
    /// The first 16 hex digits of an HMAC of a fixed label: names the key, reveals nothing.
    public let fingerprint: String

    public static let minimumBytes = 32

    /// `material` is the key file's content, whitespace at the ends ignored.
    public init(material: Data) throws {
        let trimmed = Data(String(decoding: material, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard trimmed.count >= Self.minimumBytes else {
            throw AuditError.keyTooShort(minimumBytes: Self.minimumBytes)
        }
        key = SymmetricKey(data: trimmed)
        fingerprint = String(Self.hmac(key, "iapdesk audit key fingerprint").prefix(16))
    }

    /// A fresh key as the text a key file holds: 32 random bytes in hex.
    public static func generateMaterial() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { AuditChain.hex($0) }
    }

    /// The MAC an entry carries: it signs the entry's chain hash.
    package func entryMAC(hash: String) -> String { Self.hmac(key, "entry:\(hash)") }

    /// The MAC the audit head carries: it signs where the log ends.
    package func headMAC(seq: Int64, hash: String) -> String { Self.hmac(key, "head:\(seq):\(hash)") }

    public var description: String { "audit key \(fingerprint)" }

    public static func == (lhs: AuditKey, rhs: AuditKey) -> Bool { lhs.fingerprint == rhs.fingerprint }

    private static func hmac(_ key: SymmetricKey, _ message: String) -> String {
        AuditChain.hex(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key))
    }
}
