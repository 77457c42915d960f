import Crypto
import Foundation

/// R10: the audit log is a hash chain. Each entry's hash covers its own fields and the
/// previous entry's hash, so changing, inserting or deleting any entry breaks every hash
/// after it, and `iapdesk audit verify` names the first one that no longer matches.
public enum AuditChain {
    /// The `previous` of the first entry.
    public static let genesis = String(repeating: "0", count: 64)

    /// SHA-256, hex, over the entry's fields, each length-prefixed so no two entries'
    /// fields can run together into the same bytes, and the previous entry's hash.
    ///
    /// `grants` (the grant rows the entry records, from migration 23) is hashed only when
    /// the entry names some: entries written before it, which name none, hash as they did.
    /// So is `why` (a rule's decision as its stored JSON, from migration 31), labelled.
    public static func hash(
        previous: String, seq: Int64, at: Millis, actor: String, role: String, action: String, target: String, reason: String?, detail: String,
        grants: ClosedRange<Int64>?, why: String? = nil
    ) -> String {
        // Length-prefixed fields: no choice of field contents can make two entries collide,
        // and a list of ten fields never encodes like a list of nine.
        var fields = [previous, String(seq), String(at), actor, role, action, target, reason ?? "\u{0}", detail]
        if let grants { fields += [String(grants.lowerBound), String(grants.upperBound)] }
        if let why { fields += ["why", why] }
        var data = Data()
        for field in fields {
            let bytes = Data(field.utf8)
            data.append(contentsOf: String(bytes.count).utf8)
            data.append(0x3A)
            data.append(bytes)
        }
        return hex(SHA256.hash(data: data))
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// Lower-case hex; `String(format:)` per byte was a tenth of seeding time.
    package static func hex<Bytes: Sequence<UInt8>>(_ digest: Bytes) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        for byte in digest {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
