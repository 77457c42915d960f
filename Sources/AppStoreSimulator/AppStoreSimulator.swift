import Foundation
import Receipts

/// The simulated App Store: one certificate authority, one ledger, the verifyReceipt and
/// Server API services over it, the API key it accepts and the faults in force. Serve it
/// over loopback HTTP with `SimulatorServer`, or drive its ledger directly in tests.
public final class AppStoreSimulator: Sendable {
    /// The app's Apple ID (App Store Connect's "Apple ID" of the app), the same in every
    /// answer and notification, as a production verifier configured with it expects.
    public static let appAppleId: Int64 = 1_000_000_001
    public let bundleId: String
    public let authority: CertificateAuthority
    public let ledger: Ledger
    public let apiKey: SimulatorAPIKey
    public let sharedSecret: String?
    public let faults: FaultSwitch
    /// Where its App Store Server Notifications go, and their history.
    public let notifications = NotificationSender()
    /// What the Server API's actions left: consumption answers, extension requests, test tokens.
    let actions = ActionLog()
    let verifyReceipt: VerifyReceiptService
    let serverAPI: ServerAPIService
    let keyCheck: APIKeyCheck

    public init(
        bundleId: String, sharedSecret: String? = nil, apiKey: SimulatorAPIKey = SimulatorAPIKey(),
        faults: FaultProfile = .none, seed: UInt64 = 0x1AD_DE5C, authority: CertificateAuthority? = nil,
        catalogue: SimulatedCatalogue = .standard, firstTransactionId: Int64 = 2_000_000_000_000_001
    ) throws {
        self.bundleId = bundleId
        let authority = try authority ?? CertificateAuthority()
        self.authority = authority
        ledger = Ledger(bundleId: bundleId, minter: ReceiptMinter(authority: authority), catalogue: catalogue, firstTransactionId: firstTransactionId)
        self.apiKey = apiKey
        self.sharedSecret = sharedSecret
        self.faults = FaultSwitch(faults, seed: seed)
        verifyReceipt = VerifyReceiptService(ledger: ledger, authority: authority, sharedSecret: sharedSecret)
        serverAPI = ServerAPIService(ledger: ledger, authority: authority)
        keyCheck = APIKeyCheck(key: apiKey, bundleId: bundleId)
    }

    /// The root to configure as a trust root: receipts and JWS from this simulator verify
    /// with it and with nothing else.
    public var trustRoots: TrustRoots { TrustRoots(apple: [authority.root]) }

    /// The consumption information the developer sent for `transactionId`, as sent.
    public func consumptionAnswer(transactionId: String) async -> [String: String]? { await actions.consumption[transactionId] }
}
