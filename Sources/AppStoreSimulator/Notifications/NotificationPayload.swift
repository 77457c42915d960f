import Foundation

/// `ResponseBodyV2DecodedPayload` as the simulator signs it: Apple's field names, dates in
/// milliseconds, the transaction and renewal info as JWS of their own.
struct NotificationPayload: Encodable {
    var notificationType: String
    var subtype: String?
    var notificationUUID: String
    var version = "2.0"
    var signedDate: Int64
    var data: NotificationData

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
    public func signedTransaction(_ purchase: SimulatedPurchase, signedAt: Date = Date()) throws -> String {
        try JWSMinter(authority: authority).sign(TransactionPayload(purchase, bundleId: bundleId, signedAt: signedAt))
    }

    /// A notification about `purchase`, signed as Apple signs them (the simulator's chain
    /// in `x5c`). Auto-renewables carry their renewal info too. Status as Get All
    /// Subscription Statuses has it: 1 active, 2 expired, 5 revoked.
    public func notification(
        _ type: String, subtype: String? = nil, about purchase: SimulatedPurchase, signedAt: Date = Date(),
        uuid: String = UUID().uuidString.lowercased(), consumptionRequestReason: String? = nil
    ) async throws -> SimulatedNotification {
        let minter = JWSMinter(authority: authority)
        let latest = await ledger.chain(originalTransactionId: purchase.originalTransactionId).last ?? purchase
        let subscription = purchase.kind == .autoRenewable
        let status: Int? = subscription ? (purchase.isRevoked ? 5 : (latest.expiresDate ?? .distantFuture) < signedAt ? 2 : 1) : nil
        let payload = NotificationPayload(
            notificationType: type, subtype: subtype, notificationUUID: uuid, signedDate: signedAt.milliseconds,
            data: .init(
                bundleId: bundleId, environment: purchase.isSandbox ? "Sandbox" : "Production",
                signedTransactionInfo: try minter.sign(TransactionPayload(purchase, bundleId: bundleId, signedAt: signedAt)),
                signedRenewalInfo: subscription ? try minter.sign(RenewalPayload(latest, signedAt: signedAt)) : nil,
                status: status, consumptionRequestReason: consumptionRequestReason))
        return SimulatedNotification(
            uuid: uuid, type: type, subtype: subtype, signedDate: signedAt, isSandbox: purchase.isSandbox,
            transactionIds: [purchase.transactionId, purchase.originalTransactionId], signedPayload: try minter.sign(payload))
    }
}
