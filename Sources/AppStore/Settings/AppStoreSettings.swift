import Crypto
import Foundation
import OrderDomain
import Receipts

/// Where Apple is and how iapdesk proves who it is (the Apple article). Secrets are `Secret`s,
/// whose descriptions never show the value.
public struct AppStoreSettings: Sendable {
    /// The first app's; every other app of the store is in `otherApps`.
    public var bundleId: String
    public var verifyReceipt: VerifyReceiptEndpoints
    /// Nil when no In-App Purchase key is configured: re-verification then uses verifyReceipt only.
    public var serverAPI: ServerAPICredentials?
    /// The store's other apps, each with its own shared secret and key.
    public var otherApps: [AppleApp] = []
    /// Roots that the Server API's JWS must chain to.
    public var trust: TrustRoots
    /// Per HTTP request, connection included. Apple takes 3–6 s on a bad day [S2].
    public var requestTimeout: Duration = .seconds(30)
    /// A 429's `Retry-After` up to this long is waited out and the call repeated once;
    /// longer ones become a retryable outcome for the R4 schedule.
    public var maxRetryAfter: Duration = .seconds(10)
    /// Connections kept to one host: bulk re-verification runs this many calls at once.
    public var maxConnections: Int = 64

    public init(bundleId: String, verifyReceipt: VerifyReceiptEndpoints = .apple, serverAPI: ServerAPICredentials? = nil, trust: TrustRoots) {
        self.bundleId = bundleId
        self.verifyReceipt = verifyReceipt
        self.serverAPI = serverAPI
        self.trust = trust
    }
}

extension AppStoreSettings {
    /// One app's identity at Apple: its bundle id, its shared secret (in `verifyReceipt`) and
    /// its In-App Purchase key.
    public struct AppleApp: Sendable {
        public var bundleId: String
        public var verifyReceipt: VerifyReceiptEndpoints
        public var serverAPI: ServerAPICredentials?

        public init(bundleId: String, verifyReceipt: VerifyReceiptEndpoints, serverAPI: ServerAPICredentials?) {
            self.bundleId = bundleId
            self.verifyReceipt = verifyReceipt
            self.serverAPI = serverAPI
        }
    }
}

public struct VerifyReceiptEndpoints: Sendable, Equatable {
    public var productionURL: String
    public var sandboxURL: String
    /// The app's shared secret, required for receipts with auto-renewable subscriptions.
    public var sharedSecret: Secret?
    /// R2: where the first call goes. Production unless the whole store is a sandbox one.
    public var first: AppleEnvironment = .production

    public init(productionURL: String, sandboxURL: String, sharedSecret: Secret? = nil) {
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.sharedSecret = sharedSecret
    }

    public static let apple = VerifyReceiptEndpoints(
        productionURL: "https://buy.itunes.apple.com/verifyReceipt", sandboxURL: "https://sandbox.itunes.apple.com/verifyReceipt")

    /// A simulator at `base` (`http://127.0.0.1:PORT`).
    public static func simulator(_ base: String, sharedSecret: Secret? = nil) -> VerifyReceiptEndpoints {
        VerifyReceiptEndpoints(productionURL: "\(base)/verifyReceipt", sandboxURL: "\(base)/sandbox/verifyReceipt", sharedSecret: sharedSecret)
    }

    func url(_ environment: AppleEnvironment) -> String { environment == .production ? productionURL : sandboxURL }
}

/// An In-App Purchase key from App Store Connect and the Server API's base URLs.
public struct ServerAPICredentials: Sendable {
    public var productionURL: String
    public var sandboxURL: String
    public var issuerId: String
    public var keyId: String
    let key: P256.Signing.PrivateKey

    public static let appleProductionURL = "https://api.storekit.apple.com"
    public static let appleSandboxURL = "https://api.storekit-sandbox.apple.com"

    /// `p8` is the `.p8` file's PEM; a key that does not parse is refused here, not at the
    /// first call.
    public init(issuerId: String, keyId: String, p8: Secret, productionURL: String = appleProductionURL, sandboxURL: String = appleSandboxURL)
        throws(AppStoreConfigError)
    {
        do { key = try P256.Signing.PrivateKey(pemRepresentation: p8.value) } catch {
            throw AppStoreConfigError("the App Store Server API key (\(p8.origin)) is not a PEM P-256 private key")
        }
        self.issuerId = issuerId
        self.keyId = keyId
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
    }

    func baseURL(_ environment: AppleEnvironment) -> String { environment == .production ? productionURL : sandboxURL }
}

public struct AppStoreConfigError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
