import Foundation
import Receipts

/// One purchase as the simulated App Store remembers it.
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
    /// The order id on the customer's emailed invoice (Look Up Order ID), e.g. `MK5TTTVW01`.
    public var appleOrderId: String
    /// Family Sharing access revoked (Apple's REVOKE): the purchase stops counting, like a refund.
    public var isRevoked: Bool = false

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
}

/// The simulated App Store's memory: purchases per Apple ID, renewals, refunds and
/// auto-renew switches. Receipts minted from it are real signed PKCS#7.
public actor Ledger {
    private var purchases: [SimulatedPurchase] = []
    private var nextId: Int64
    private let minter: ReceiptMinter
    public let bundleId: String

    public init(bundleId: String, minter: ReceiptMinter, firstTransactionId: Int64 = 2_000_000_000_000_001) {
        self.bundleId = bundleId
        self.minter = minter
        nextId = firstTransactionId
    }

    /// Purchases made elsewhere, with their own ids (a seeded store's history): the
    /// simulated App Store knows them from now on, as Apple knows every real one.
    public func adopt(_ made: [SimulatedPurchase]) {
        purchases.append(contentsOf: made)
        // New purchases must not reuse an adopted id.
        if let highest = made.compactMap({ Int64($0.transactionId) }).max(), highest >= nextId { nextId = highest + 1 }
    }

    /// Everything the ledger remembers, to save and adopt again later.
    public var all: [SimulatedPurchase] { purchases }

    private func newId() -> Int64 {
        defer { nextId += 1 }
        return nextId
    }

    /// Buys `productId` on `appleId`; subscriptions last `period` (one month by default).
    @discardableResult
    public func purchase(
        appleId: String, productId: String, kind: SimulatedPurchase.Kind, sandbox: Bool = false,
        at date: Date = Date(), period: TimeInterval = 30 * 86_400, appAccountToken: String? = nil
    ) -> SimulatedPurchase {
        let id = newId()
        let subscription = kind == .autoRenewable || kind == .nonRenewing
        let purchase = SimulatedPurchase(
            appleId: appleId, transactionId: String(id), originalTransactionId: String(id), productId: productId, kind: kind,
            isSandbox: sandbox, purchaseDate: date, expiresDate: subscription ? date.addingTimeInterval(period) : nil,
            webOrderLineItemId: kind == .autoRenewable ? id + 340_000_000_000_000 : nil, autoRenew: kind == .autoRenewable,
            appAccountToken: appAccountToken, appleOrderId: Self.invoiceOrderId(id))
        purchases.append(purchase)
        return purchase
    }

    /// The next period of an auto-renewable subscription: a new transaction, same original id.
    @discardableResult
    public func renew(originalTransactionId: String, period: TimeInterval = 30 * 86_400) throws -> SimulatedPurchase {
        guard let last = purchases.last(where: { $0.originalTransactionId == originalTransactionId }), last.kind == .autoRenewable else {
            throw SimulatorError.unknown("auto-renewable subscription \(originalTransactionId)")
        }
        let start = last.expiresDate ?? Date()
        let id = newId()
        var renewal = last
        renewal.transactionId = String(id)
        renewal.purchaseDate = start
        renewal.expiresDate = start.addingTimeInterval(period)
        renewal.webOrderLineItemId = id + 340_000_000_000_000
        renewal.cancellationDate = nil
        renewal.appleOrderId = Self.invoiceOrderId(id)
        purchases.append(renewal)
        return renewal
    }

    /// Apple refunded (or revoked) the transaction.
    public func refund(transactionId: String, reason: Int = 0, at date: Date = Date()) throws {
        guard let index = purchases.firstIndex(where: { $0.transactionId == transactionId }) else {
            throw SimulatorError.unknown("transaction \(transactionId)")
        }
        purchases[index].cancellationDate = date
        purchases[index].cancellationReason = reason
    }

    /// Family Sharing access taken back: Apple revokes with a date, reason 0.
    public func revoke(transactionId: String, at date: Date = Date()) throws {
        try refund(transactionId: transactionId, reason: 0, at: date)
        if let index = purchases.firstIndex(where: { $0.transactionId == transactionId }) { purchases[index].isRevoked = true }
    }

    public func setAutoRenew(originalTransactionId: String, _ on: Bool) {
        for index in purchases.indices where purchases[index].originalTransactionId == originalTransactionId {
            purchases[index].autoRenew = on
        }
    }

    public func purchases(appleId: String) -> [SimulatedPurchase] { purchases.filter { $0.appleId == appleId } }

    public func purchase(transactionId: String) -> SimulatedPurchase? { purchases.first { $0.transactionId == transactionId } }

    /// The purchases on one emailed invoice.
    public func purchases(appleOrderId: String) -> [SimulatedPurchase] { purchases.filter { $0.appleOrderId == appleOrderId } }

    /// Every purchase of the customer who made `transactionId` (Get Transaction History
    /// accepts any of their transaction ids), oldest first.
    public func history(anyTransactionId: String) -> [SimulatedPurchase] {
        guard let known = purchase(transactionId: anyTransactionId) else { return [] }
        return purchases.filter { $0.appleId == known.appleId && $0.isSandbox == known.isSandbox }
    }

    /// Apple's invoice order ids are ten characters; the simulator's end in the transaction's digits.
    static func invoiceOrderId(_ id: Int64) -> String {
        let digits = String(id)
        return "MK" + digits.suffix(8)
    }

    /// Every period of a subscription, oldest first.
    public func chain(originalTransactionId: String) -> [SimulatedPurchase] {
        purchases.filter { $0.originalTransactionId == originalTransactionId }
    }

    /// The app receipt a device signed in with `appleId` would hold now: every purchase of
    /// that Apple ID in one environment. Two game accounts on one Apple ID send the same one.
    public func receipt(appleId: String, sandbox: Bool = false, at date: Date = Date()) throws -> String {
        let mine = purchases.filter { $0.appleId == appleId && $0.isSandbox == sandbox }
        return try minter.mint(Self.appReceipt(bundleId: bundleId, holding: mine, sandbox: sandbox, at: date))
    }

    /// The app receipt of an app holding `purchases`, created at `date`.
    public static func appReceipt(bundleId: String, holding purchases: [SimulatedPurchase], sandbox: Bool, at date: Date) -> AppReceipt {
        AppReceipt(
            receiptType: sandbox ? "ProductionSandbox" : "Production", appItemId: 1_000_000_001, bundleId: bundleId, appVersion: "1.0",
            receiptCreationDate: date, originalApplicationVersion: "1.0",
            inAppPurchases: purchases.map(\.inAppPurchase))
    }
}

extension SimulatedPurchase {
    var inAppPurchase: InAppPurchase {
        InAppPurchase(
            quantity: 1, productId: productId, transactionId: transactionId, originalTransactionId: originalTransactionId,
            purchaseDate: purchaseDate, originalPurchaseDate: purchaseDate, productType: kind.rawValue, expiresDate: expiresDate,
            webOrderLineItemId: webOrderLineItemId, cancellationDate: cancellationDate,
            isTrialPeriod: kind == .autoRenewable ? false : nil, isInIntroOfferPeriod: kind == .autoRenewable ? false : nil)
    }
}

public enum SimulatorError: Error, Sendable, CustomStringConvertible {
    case unknown(String)
    case cannotSave(String)
    case cannotLoad(String)
    public var description: String {
        switch self {
        case .unknown(let what): "the simulator knows no \(what)"
        case .cannotSave(let path): "cannot save the simulator's state to \(path)"
        case .cannotLoad(let why): "cannot load the saved simulator: \(why)"
        }
    }
}
