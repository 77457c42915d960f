/// How a receipt or transaction was checked with its store.
public enum VerificationMethod: String, Sendable, Codable {
    case verifyReceipt = "verify_receipt"
    case serverAPI = "server_api"
    /// The Google Play Developer API (purchases.productsv2, purchases.subscriptionsv2).
    case googlePlay = "google_play"

    /// Whether its answers carry a consumable's refund: a receipt never does (only a
    /// notification tells), a signed transaction's revocation and Google's state do.
    public var reportsConsumableRefunds: Bool { self != .verifyReceipt }
}

/// The decoded content of a valid Apple answer: what the R5 checks and R6–R9 read.
public struct AppleReceiptContent: Sendable, Equatable, Codable {
    public var bundleId: String
    /// `receipt.in_app`.
    public var inApp: [AppleTransaction]
    /// `latest_receipt_info` (empty for receipts without auto-renewables).
    public var latestReceiptInfo: [AppleTransaction]
    public var pendingRenewals: [AppleRenewalInfo]

    public init(bundleId: String, inApp: [AppleTransaction], latestReceiptInfo: [AppleTransaction] = [], pendingRenewals: [AppleRenewalInfo] = []) {
        self.bundleId = bundleId
        self.inApp = inApp
        self.latestReceiptInfo = latestReceiptInfo
        self.pendingRenewals = pendingRenewals
    }
}

/// Everything one call to Apple produced, as the AppStore client hands it to the store.
/// The store classifies it (R3), keeps it as a verification attempt, and applies the rules.
public struct VerificationReport: Sendable, Equatable {
    public var method: VerificationMethod
    /// The environment that gave the final answer (after any R2 resend).
    public var environment: AppleEnvironment?
    /// Apple's `status` field, when a JSON body was read.
    public var appleStatus: Int?
    public var httpStatus: Int?
    /// `is_retryable` / `is-retryable`, for 211xx.
    public var isRetryable: Bool?
    /// verifyReceipt: whether our shared secret went with the request (21003 without one
    /// is our configuration, not a forged receipt). Nil when unknown.
    public var sharedSecretSent: Bool?
    /// Set when no HTTP answer came: a time-out, a refused connection, a malformed body.
    public var transportError: String?
    public var latencyMs: Int
    /// The raw response body, kept verbatim for the console's receipt screen.
    public var body: String
    public var content: AppleReceiptContent?
    /// Google Play only: what Google says of the purchase token beyond the rules' keys.
    public var play: PlayPurchaseFacts?
    /// Google Play only: the `reason` of Google's error answer (`purchaseTokenNotFound`…).
    public var playError: String?
    /// Nobody was asked: this process has no settings for the purchase's store.
    public var storeNotConfigured = false

    public init(
        method: VerificationMethod = .verifyReceipt, environment: AppleEnvironment?, appleStatus: Int?,
        httpStatus: Int? = 200, isRetryable: Bool? = nil, sharedSecretSent: Bool? = true, transportError: String? = nil,
        latencyMs: Int = 0, body: String = "", content: AppleReceiptContent? = nil
    ) {
        self.sharedSecretSent = sharedSecretSent
        self.method = method
        self.environment = environment
        self.appleStatus = appleStatus
        self.httpStatus = httpStatus
        self.isRetryable = isRetryable
        self.transportError = transportError
        self.latencyMs = latencyMs
        self.body = body
        self.content = content
    }
}

/// What OrderStore needs from Apple. The AppStore module implements it
/// over HTTP; tests implement it with prepared reports. A verifier never throws for
/// Apple's own failures: a time-out is a report with `transportError`, so that R1/R4 can
/// keep the receipt and schedule a retry.
public protocol ReceiptVerifier: Sendable {
    /// Verify a stored submission's evidence for an order.
    func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?) async -> VerificationReport
    /// The same for an order of `app` (bundle id), with that app's credentials: its shared
    /// secret, its Server API key. A verifier of one app has only its own.
    func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?, app: String) async -> VerificationReport
}

/// Reads an answer stored with a verification attempt back into the content the rules saw,
/// every signature checked again: what the receipt screen and `order receipt` show. The
/// AppStore module, which wrote the answer, implements it; the console and the command line
/// see only this.
public protocol StoredAnswerReader: Sendable {
    /// The content of a stored verifyReceipt body or Server API answer; nil for anything else
    /// (a receipt never sent to Apple, an answer whose signature no longer verifies).
    func content(ofStoredAnswer body: String) async -> AppleReceiptContent?
}

extension ReceiptVerifier {
    public func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?, app: String) async -> VerificationReport {
        await verify(evidence, claimedTransactionId: claimedTransactionId)
    }
}
