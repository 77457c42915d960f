import Foundation
import SimulatorFaults

/// The simulated Google Play: one ledger of purchase tokens, the keys Google holds (the
/// developer's service account, the Pub/Sub push signer), the real-time developer
/// notifications it pushes and the faults in force. Serve it over loopback HTTP with
/// `PlaySimulatorServer`, or drive its ledger directly in tests.
public final class GooglePlaySimulator: Sendable {
    /// The app's package names: Google answers about these and no other.
    public let packageNames: [String]
    public let ledger: PlayLedger
    public let keys: PlayKeys
    public let faults: FaultSwitch
    public let notifications: PushSender
    /// The access tokens it handed out, and the actions Google took at the developer's request.
    let tokens = AccessTokens()

    /// `keys`: Google's keys, made anew when nil (two RSA keys; tests share one set).
    public init(
        packageNames: [String], faults: FaultProfile = .none, seed: UInt64 = 0x9A7_0001, catalogue: PlayCatalogue = .standard, keys: PlayKeys? = nil
    ) throws {
        self.packageNames = packageNames
        self.keys = try keys ?? PlayKeys()
        ledger = PlayLedger(catalogue: catalogue, seed: seed)
        self.faults = FaultSwitch(faults, seed: seed)
        notifications = PushSender(keys: self.keys)
    }

    /// The first package: what a purchase is made in when none is named.
    public var packageName: String { packageNames.first ?? "com.iapdesk.demo" }
}

/// Access tokens issued by the simulated token endpoint; each valid for an hour.
actor AccessTokens {
    private var issued: [String: Date] = [:]

    func issue(now: Date = Date()) -> String {
        let token = "ya29.sim-" + UUID().uuidString.lowercased()
        issued[token] = now.addingTimeInterval(3600)
        return token
    }

    func isValid(_ token: String, now: Date = Date()) -> Bool { (issued[token] ?? .distantPast) > now }
}
