import Foundation

/// `ResponseBodyV2DecodedPayload` as the simulator signs it: Apple's field names, dates in
/// milliseconds, the transaction and renewal info as JWS of their own. A notification has
/// `data` (about a purchase), `summary` (RENEWAL_EXTENSION/SUMMARY) or `appData`
/// (RESCIND_CONSENT: about the app, no purchase).
struct NotificationPayload: Encodable {
    var notificationType: String
    var subtype: String?
    var notificationUUID: String
    var version = "2.0"
    var signedDate: Int64
    var data: NotificationData?
    var summary: Summary?
    var appData: AppData?
    var externalPurchaseToken: ExternalPurchaseToken?

    struct NotificationData: Encodable {
        var appAppleId: Int64 = AppStoreSimulator.appAppleId
        var bundleId: String
        var bundleVersion = "1"
        var environment: String
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
        var status: Int?
        var consumptionRequestReason: String?
    }

    /// The outcome of an extension for all active subscribers.
    struct Summary: Encodable {
        var requestIdentifier: String
        var environment: String
        var appAppleId: Int64 = AppStoreSimulator.appAppleId
        var bundleId: String
        var productId: String
        var storefrontCountryCodes: [String]
        var succeededCount: Int64
        var failedCount: Int64
    }

    /// EXTERNAL_PURCHASE_TOKEN's: a purchase outside the App Store, its app named here.
    struct ExternalPurchaseToken: Encodable {
        var externalPurchaseId: String
        var tokenCreationDate: Int64
        var appAppleId: Int64 = AppStoreSimulator.appAppleId
        var bundleId: String
        var tokenType: String
        var tokenExpirationDate: Int64
    }

    struct AppData: Encodable {
        var appAppleId: Int64 = AppStoreSimulator.appAppleId
        var bundleId: String
        var environment: String
        var signedAppTransactionInfo: String
    }
}

/// One V2 notification the simulator made: what it is about and its signed payload.
public struct SimulatedNotification: Sendable, Equatable {
    public var uuid: String
    public var type: String
    public var subtype: String?
    public var signedDate: Date
    public var isSandbox: Bool
    /// The transaction and original transaction it is about (History filters by either).
    public var transactionIds: [String]
    /// The JWS Apple posts as `{"signedPayload": …}`.
    public var signedPayload: String

    /// The body Apple posts.
    public var body: String { #"{"signedPayload":"\#(signedPayload)"}"# }
}

extension AppStoreSimulator {
    /// The StoreKit 2 signed transaction the device holds for `purchase`.
    public func signedTransaction(_ purchase: SimulatedPurchase, signedAt: Date = Date()) async throws -> String {
        try await serverAPI.signTransaction(purchase, at: signedAt)
    }

    /// A notification about `purchase`, signed as Apple signs them (the simulator's chain
    /// in `x5c`). Auto-renewables carry their renewal info and status as Get All
    /// Subscription Statuses has it (1 active, 2 expired, 3 billing retry, 4 grace, 5 revoked).
    public func notification(
        _ type: String, subtype: String? = nil, about purchase: SimulatedPurchase, signedAt: Date = Date(),
        uuid: String = UUID().uuidString.lowercased(), consumptionRequestReason: String? = nil
    ) async throws -> SimulatedNotification {
        let latest = await ledger.chain(originalTransactionId: purchase.originalTransactionId).last ?? purchase
        let subscription = purchase.kind == .autoRenewable
        let data = NotificationPayload.NotificationData(
            bundleId: bundleId, environment: serverAPI.environment(purchase.isSandbox),
            signedTransactionInfo: try await serverAPI.signTransaction(purchase, at: signedAt),
            signedRenewalInfo: subscription ? try await serverAPI.signRenewal(purchase.originalTransactionId, at: signedAt) : nil,
            status: subscription ? latest.subscriptionStatus(at: signedAt) : nil, consumptionRequestReason: consumptionRequestReason)
        return try notification(
            NotificationPayload(notificationType: type, subtype: subtype, notificationUUID: uuid, signedDate: signedAt.milliseconds, data: data),
            sandbox: purchase.isSandbox, about: [purchase.transactionId, purchase.originalTransactionId])
    }

    /// Signs `payload` into the notification Apple would post.
    func notification(_ payload: NotificationPayload, sandbox: Bool, about transactionIds: [String]) throws -> SimulatedNotification {
        SimulatedNotification(
            uuid: payload.notificationUUID, type: payload.notificationType, subtype: payload.subtype,
            signedDate: Date(timeIntervalSince1970: Double(payload.signedDate) / 1000), isSandbox: sandbox,
            transactionIds: transactionIds, signedPayload: try JWSMinter(authority: authority).sign(payload))
    }

    /// A notification with only the app's identity in `data` (TEST).
    func appNotification(_ type: String, subtype: String? = nil, sandbox: Bool, signedAt: Date = Date()) throws -> SimulatedNotification {
        try notification(
            NotificationPayload(
                notificationType: type, subtype: subtype, notificationUUID: UUID().uuidString.lowercased(), signedDate: signedAt.milliseconds,
                data: .init(bundleId: bundleId, environment: serverAPI.environment(sandbox))),
            sandbox: sandbox, about: [])
    }
}
