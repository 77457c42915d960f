import ArgumentParser
import Foundation
import GooglePlay
import GooglePlaySimulator
import SyntheticData

/// Which store's purchases a benchmark sends.
enum BenchStore: String, ExpressibleByArgument, Sendable {
    case appStore = "app-store"
    case googlePlay = "google-play"
}

/// Google Play for the benchmarks: the package, and a Play client signed in with a
/// simulator's service account.
enum BenchPlay {
    static let package = DemoCatalogue.bundleId
    /// Makes a load's tokens as long as Google's (about 150 characters).
    static let tokenTail = String(repeating: "AO-J1Oy", count: 18)
    static let audience = "https://iapdesk.bench/google/notifications"

    /// A client for `apiBase` with `keys`' service account (a fresh simulator's when nil).
    static func client(apiBase: String, keys: PlayKeys? = nil, tokenURI: String = "http://127.0.0.1:9/token", certsURL: String = "http://127.0.0.1:9/certs")
        throws -> PlayClient
    {
        let keys = try keys ?? PlayKeys()
        let keyFile = try JSONSerialization.data(withJSONObject: keys.serviceAccountFile(tokenURI: tokenURI))
        return PlayClient(
            settings: PlaySettings(
                packageNames: [package], serviceAccount: try ServiceAccountKey(json: keyFile), apiBase: apiBase,
                push: PushSettings(audience: audience, serviceAccountEmail: keys.pushServiceAccountEmail, certsURL: certsURL)))
    }
}
