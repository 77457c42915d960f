import Foundation
import X509

/// Chains already found trusted, each with the span of time that finding holds for.
///
/// Every notification and every JWS Apple signs in one period carries the same three
/// certificates, and checking their chain (two more signatures, the path search, the
/// policies) cost more than the rest of a notification's acknowledgement. Apple's own
/// App Store Server Library keeps verified chains for the same reason. Kept here is only a
/// trusted outcome, and only what does not depend on the instant checked: the signatures,
/// the extensions and Apple's markers. The instant is checked again on every use, against
/// the latest `notValidBefore` and the earliest `notValidAfter` of the chain, so a
/// receipt dated outside the chain's validity is refused as before. A chain that fails is
/// checked in full every time: a forger gets nothing cached.
final class VerifiedChains: @unchecked Sendable {
    static let shared = VerifiedChains()

    struct Key: Hashable {
        let leaf: Certificate
        let intermediates: [Certificate]
        let anchors: [Certificate]

        /// The leaf's serial number picks the entry; equality still compares every
        /// certificate. Hashing the certificates whole went byte by byte through the
        /// `Hasher`: a twentieth of a notification's decoding.
        func hash(into hasher: inout Hasher) {
            hasher.combine(leaf.serialNumber)
            hasher.combine(intermediates.count)
            hasher.combine(anchors.count)
        }
    }

    struct Trusted {
        let chain: [CertificateSummary]
        let validity: ClosedRange<Date>
    }

    private let lock = NSLock()
    private var entries: [Key: Trusted] = [:]
    /// Enough for every Apple signing era and both trust setups; beyond it the cache restarts.
    private let capacity = 64

    /// The chain found trusted for `key`, if that finding holds at `time`.
    func trusted(_ key: Key, at time: Date) -> [CertificateSummary]? {
        guard let hit = lock.withLock({ entries[key] }), hit.validity.contains(time) else { return nil }
        return hit.chain
    }

    /// Remembers a chain the verifier found trusted.
    func remember(_ key: Key, chain: [Certificate]) {
        guard let from = chain.map(\.notValidBefore).max(), let until = chain.map(\.notValidAfter).min(), from <= until else { return }
        let trusted = Trusted(chain: chain.map(CertificateSummary.init), validity: from...until)
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = trusted
        }
    }

    /// Forgets every entry (the benchmark's cold figures).
    func removeAll() {
        lock.withLock { entries.removeAll() }
    }
}
