import Foundation
import Receipts

/// One transaction as the simulated App Store remembers it. Fields added after the first
/// saved ledgers are optional, so a ledger saved before them still loads.
public struct SimulatedPurchase: Sendable, Equatable, Codable {
    public enum Kind: Int64, Sendable, Codable {
        // Apple's undocumented receipt field 1707 numbering.
        case nonConsumable = 0, consumable = 1, nonRenewing = 2, autoRenewable = 3
    }

    public var appleId: String
    public var transactionId: String
    public var originalTransactionId: String
    public var productId: String
    public var kind: Kind
    public var isSandbox: Bool
    public var purchaseDate: Date
    public var expiresDate: Date?
    public var cancellationDate: Date?
    /// 0 = other, 1 = an app issue (Apple's cancellation_reason).
    public var cancellationReason: Int?
    public var webOrderLineItemId: Int64?
    public var autoRenew: Bool
    /// The `appAccountToken` the game passed with the purchase: its order id.
    public var appAccountToken: String?
    /// The order id on the customer's emailed invoice (Look Up Order ID), e.g. `MK5TTTVW01`:
    /// one per invoice, which may hold several purchases bought together.
    public var appleOrderId: String
    /// Family Sharing access revoked (Apple's REVOKE): the purchase stops counting, like a refund.
    public var isRevoked: Bool = false
    /// The first purchase of a subscription (a renewal keeps its original's); nil: `purchaseDate`.
    public var originalPurchaseDate: Date?
    public var quantity: Int?
    public var priceMilli: Int64?
    public var currency: String?
    /// `FAMILY_SHARED` for a family member's access to a purchase shared with them.
    public var familyShared: Bool?
    /// For a family member's access: the organizer's original transaction id, whose
    /// renewals, expiry and refund the member's subscription follows.
    public var sharedFrom: String?
    /// A partial refund: Apple's `revocationPercentage` in thousandths of a percent (50000 is 50 %).
    public var revocationPercentage: Int?
    /// Replaced by an upgrade in the same group (`isUpgraded`).
    public var isUpgraded: Bool?
    /// A promotional or offer-code offer this period was bought with (Apple's `offerType`, 1–4).
    public var offerType: Int?
    public var offerIdentifier: String?
    /// Renewal state, kept on a subscription's latest transaction: the product it renews
    /// to (a downgrade waiting for the renewal), billing retry, grace period, the consent to
    /// a price increase (0 pending, 1 accepted) and the renewal-date extensions granted.
    public var autoRenewProductId: String?
    public var inBillingRetry: Bool?
    public var gracePeriodExpiresDate: Date?
    public var priceIncreaseStatus: Int?
    public var extensionDates: [Date]?
    /// When the developer's server said it finished the purchase (Finish Transaction).
    public var finishedAt: Date?
    /// A plan billed monthly with a commitment of `commitmentPayments` payments (Apple's
    /// 12-month commitment): this period is payment `commitmentPayment`, of a commitment
    /// that started at `commitmentStart`. Nil for a subscription billed up front.
    public var commitmentPayment: Int?
    public var commitmentPayments: Int?
    public var commitmentStart: Date?
    /// Whether a new commitment follows when this one's payments end: a subscriber who
    /// cancels during the commitment turns this off, and keeps paying until the last payment.
    public var commitmentRenews: Bool?

    /// Whether this period is a payment of a commitment plan.
    public var isCommitment: Bool { commitmentPayment != nil && commitmentPayments != nil }

    /// When the commitment this period belongs to ends: its start plus one month per payment.
    public var commitmentEnd: Date? {
        guard let start = commitmentStart, let payments = commitmentPayments else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(byAdding: .month, value: payments, to: start)
    }

    public init(
        appleId: String, transactionId: String, originalTransactionId: String, productId: String, kind: Kind, isSandbox: Bool,
        purchaseDate: Date, expiresDate: Date? = nil, cancellationDate: Date? = nil, cancellationReason: Int? = nil,
        webOrderLineItemId: Int64? = nil, autoRenew: Bool = false, appAccountToken: String? = nil, appleOrderId: String? = nil
    ) {
        self.appleId = appleId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.kind = kind
        self.isSandbox = isSandbox
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.cancellationReason = cancellationReason
        self.webOrderLineItemId = webOrderLineItemId
        self.autoRenew = autoRenew
        self.appAccountToken = appAccountToken
        self.appleOrderId = appleOrderId ?? Ledger.invoiceOrderId(Int64(transactionId) ?? 0)
    }

    /// Apple's `appTransactionId`: one per Apple Account per app and environment, the same
    /// on every device and after every reinstall. Derived from the account, so two game
    /// accounts played on one Apple Account carry the same one.
    public var appTransactionId: String { Self.appTransactionId(appleId: appleId, sandbox: isSandbox) }

    public static func appTransactionId(appleId: String, sandbox: Bool) -> String {
        // FNV-1a: stable across runs and machines, unlike Hasher.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(appleId)|\(sandbox)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(700_000_000_000_000_000 + hash % 100_000_000_000_000_000)
    }

    /// Refunded, revoked or partly refunded: Apple's `revocationType`.
    public var revocationType: String? {
        guard cancellationDate != nil else { return nil }
        if isRevoked { return "FAMILY_REVOKE" }
        return revocationPercentage.map { $0 < 100_000 } == true ? "REFUND_PRORATED" : "REFUND_FULL"
    }

    /// The subscription's status as Get All Subscription Statuses numbers it: 1 active,
    /// 2 expired, 3 billing retry, 4 billing grace period, 5 revoked.
    public func subscriptionStatus(at now: Date) -> Int {
        if isRevoked || (cancellationDate != nil && (revocationPercentage ?? 100_000) >= 100_000) { return 5 }
        if let grace = gracePeriodExpiresDate, grace > now { return 4 }
        if inBillingRetry == true { return 3 }
        return (expiresDate ?? .distantFuture) > now ? 1 : 2
    }
}

extension SimulatedPurchase {
    var inAppPurchase: InAppPurchase {
        InAppPurchase(
            quantity: Int64(quantity ?? 1), productId: productId, transactionId: transactionId, originalTransactionId: originalTransactionId,
            purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate ?? purchaseDate, productType: kind.rawValue,
            expiresDate: expiresDate, webOrderLineItemId: webOrderLineItemId, cancellationDate: cancellationDate,
            isTrialPeriod: kind == .autoRenewable ? false : nil, isInIntroOfferPeriod: kind == .autoRenewable ? false : nil)
    }
}
