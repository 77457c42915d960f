import Foundation
import X509

/// Parsed certificates by their DER bytes. Every receipt Apple signed in one period embeds
/// the same three certificates, so parsing them once per process saves most of the
/// signature check's cost when an operator decodes or re-verifies many receipts. Only the
/// parse is cached here; what a chain check found is kept apart (`VerifiedChains`).
public final class CertificateCache: @unchecked Sendable {
    public static let shared = CertificateCache()

    private let lock = NSLock()
    private var entries: [DER: Certificate] = [:]
    /// Enough for every Apple signing era with room to spare; beyond it the cache restarts.
    private let capacity = 64

    public func certificate(der: [UInt8]) throws -> Certificate {
        let key = DER(bytes: der)
        if let hit = lock.withLock({ entries[key] }) { return hit }
        let parsed = try Certificate(derEncoded: der)
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = parsed
        }
        return parsed
    }

    /// A certificate's bytes as a key, hashed as one block: an array of bytes hashes byte by
    /// byte, which for three certificates per JWS showed in the acknowledgement's profile.
    private struct DER: Hashable {
        let bytes: [UInt8]
        func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
    }

    /// Forgets every certificate parsed, header decoded and chain found trusted (the benchmark's
    /// cold figures).
    public func removeAll() {
        lock.withLock { entries.removeAll() }
        VerifiedChains.shared.removeAll()
        KnownHeaders.shared.removeAll()
    }
}
