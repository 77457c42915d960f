import Crypto
import Foundation
import X509

/// JWS headers met before, by their exact text, with their `x5c` certificates parsed and
/// the leaf's key: Apple signs with a few chains at a time, so a notification's two or three
/// JWS carry the same header over and over, and decoding it (base64 of three certificates,
/// JSON, base64 again, the certificates looked up) was half a JWS's cost before its
/// signature. The same bytes always decode the same way, so nothing checked is skipped:
/// the signature, the chain and its validity are checked on every use.
final class KnownHeaders: @unchecked Sendable {
    static let shared = KnownHeaders()

    /// A header's text decoded, and its certificates as `verify` reads them.
    struct Entry: Sendable {
        let header: JWS.Header
        let certificates: JWS.Certificates
    }

    private let lock = NSLock()
    private var entries: [(text: [UInt8], entry: Entry)] = []
    private var next = 0
    /// Apple's production, sandbox and Xcode chains with room to spare. Headers an outsider
    /// invents only take turns with them (replaced in rotation), never grow the list.
    private let capacity = 16

    /// The entry for `text`, compared byte for byte.
    func entry(_ text: UnsafeBufferPointer<UInt8>) -> Entry? {
        lock.withLock {
            entries.first { known in
                known.text.count == text.count
                    && known.text.withUnsafeBufferPointer { mine in
                        guard let mine = mine.baseAddress, let theirs = text.baseAddress else { return text.isEmpty }
                        return memcmp(mine, theirs, text.count) == 0
                    }
            }?.entry
        }
    }

    func remember(_ text: UnsafeBufferPointer<UInt8>, _ entry: Entry) {
        lock.withLock {
            if entries.count < capacity {
                entries.append((Array(text), entry))
            } else {
                entries[next] = (Array(text), entry)
                next = (next + 1) % capacity
            }
        }
    }

    /// Forgets every header (the benchmark's cold figures).
    func removeAll() {
        lock.withLock {
            entries.removeAll()
            next = 0
        }
    }
}

extension JWS {
    /// A header's `x5c`, parsed once: the certificates and the leaf's P-256 key, or which
    /// certificate does not parse.
    enum Certificates: Sendable {
        case absent
        case parsed([Certificate], leafKey: P256.Signing.PublicKey?)
        case unparsable(index: Int)

        init(x5c: [String]?) {
            guard let x5c, !x5c.isEmpty else {
                self = .absent
                return
            }
            var certificates: [Certificate] = []
            for (index, encoded) in x5c.enumerated() {
                guard let der = try? Base64.decode(encoded, what: "x5c"), let certificate = try? CertificateCache.shared.certificate(der: der) else {
                    self = .unparsable(index: index)
                    return
                }
                certificates.append(certificate)
            }
            self = .parsed(certificates, leafKey: P256.Signing.PublicKey(certificates[0].publicKey))
        }
    }
}
