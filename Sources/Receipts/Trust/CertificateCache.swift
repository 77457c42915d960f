import Foundation
import X509

/// Parsed certificates by their DER bytes. Every receipt Apple signed in one period embeds
/// the same three certificates, so parsing them once per process saves most of the
/// signature check's cost when an operator decodes or re-verifies many receipts. Only the
/// parse is cached here; what a chain check found is kept apart (`VerifiedChains`).
public final class CertificateCache: @unchecked Sendable {
    public static let shared = CertificateCache()

    private let lock = NSLock()
    private var entries: [[UInt8]: Certificate] = [:]
    /// Enough for every Apple signing era with room to spare; beyond it the cache restarts.
    private let capacity = 64

    public func certificate(der: [UInt8]) throws -> Certificate {
        if let hit = lock.withLock({ entries[der] }) { return hit }
        let parsed = try Certificate(derEncoded: der)
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[der] = parsed
        }
        return parsed
    }

    /// Forgets every certificate parsed and every chain found trusted (the benchmark's
    /// cold figures).
    public func removeAll() {
        lock.withLock { entries.removeAll() }
        VerifiedChains.shared.removeAll()
    }
}
