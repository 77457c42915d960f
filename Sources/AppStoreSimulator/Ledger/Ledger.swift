import Foundation
import Receipts

/// The simulated App Store's memory: purchases per Apple ID, renewals, refunds and
/// auto-renew switches, of the products its catalogue sells. Receipts minted from it are
/// real signed PKCS#7.
public actor Ledger {
    private var purchases: [SimulatedPurchase] = []
    private var nextId: Int64
    private let minter: ReceiptMinter
    public let bundleId: String
    public private(set) var catalogue: SimulatedCatalogue

    public init(
        bundleId: String, minter: ReceiptMinter, catalogue: SimulatedCatalogue = .standard, firstTransactionId: Int64 = 2_000_000_000_000_001
    ) {
        self.bundleId = bundleId
        self.minter = minter
        self.catalogue = catalogue
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

    /// Adds or replaces a product (App Store Connect's "create in-app purchase").
    public func sell(_ product: SimulatedProduct) { catalogue.add(product) }

    private func newId() -> Int64 {
        defer { nextId += 1 }
        return nextId
    }

    /// A subscription period's `webOrderLineItemId`, derived from its transaction id.
    private static func lineItem(_ id: Int64) -> Int64 { id + 340_000_000_000_000 }

    /// Buys `productId` on `appleId`. The catalogue decides its type, price, group and
    /// period; a product it lacks is added with `kind` (a test's shorthand; the HTTP
    /// controls refuse unknown products). `period` overrides the product's duration, and
    /// `invoice` puts the purchase on an earlier purchase's invoice (bought together).
    ///
    /// `offer` is the offer it was bought with (an offer code, type 3, for one-time products
    /// too); `commitment` bills an auto-renewable monthly with a commitment of that many
    /// payments (Apple's 12-month commitment), each period a month.
    @discardableResult
    public func purchase(
        appleId: String, productId: String, kind: SimulatedPurchase.Kind? = nil, sandbox: Bool = false,
        at date: Date = Date(), period: TimeInterval? = nil, appAccountToken: String? = nil, quantity: Int = 1, invoice: String? = nil,
        offer: (type: Int, identifier: String?)? = nil, commitment: Int? = nil
    ) -> SimulatedPurchase {
        let product = catalogue[productId] ?? adHoc(productId, kind: kind ?? .consumable)
        let id = newId()
        let committed = product.kind == .autoRenewable ? commitment : nil
        let end = committed == nil ? Self.periodEnd(product, from: date, override: period) : SimulatedProduct.Period.month.end(from: date)
        var purchase = SimulatedPurchase(
            appleId: appleId, transactionId: String(id), originalTransactionId: String(id), productId: productId, kind: product.kind,
            isSandbox: sandbox, purchaseDate: date, expiresDate: end,
            webOrderLineItemId: product.kind == .autoRenewable ? Self.lineItem(id) : nil, autoRenew: product.kind == .autoRenewable,
            appAccountToken: appAccountToken, appleOrderId: invoice ?? Self.invoiceOrderId(id))
        purchase.quantity = quantity == 1 ? nil : quantity
        purchase.priceMilli = Self.payment(product, committed: committed) * Int64(quantity)
        purchase.currency = product.currency
        purchase.offerType = offer?.type
        purchase.offerIdentifier = offer?.identifier
        if let committed {
            (purchase.commitmentPayment, purchase.commitmentPayments, purchase.commitmentStart, purchase.commitmentRenews) = (1, committed, date, true)
        }
        purchases.append(purchase)
        return purchase
    }

    /// One payment of `product`: its price, or on a commitment plan the price of a month of it.
    static func payment(_ product: SimulatedProduct, committed: Int?) -> Int64 {
        guard committed != nil, product.period == .year else { return product.priceMilli }
        return product.priceMilli / 12
    }

    private func adHoc(_ productId: String, kind: SimulatedPurchase.Kind) -> SimulatedProduct {
        let product = SimulatedProduct(productId, kind: kind, priceMilli: 6_000)
        catalogue.add(product)
        return product
    }

    /// Only auto-renewables end: a non-renewing subscription's length is the app's to decide.
    static func periodEnd(_ product: SimulatedProduct, from start: Date, override: TimeInterval?) -> Date? {
        guard product.kind == .autoRenewable else { return nil }
        if let override { return start.addingTimeInterval(override) }
        return (product.period ?? .month).end(from: start)
    }

    /// The next period of an auto-renewable subscription: a new transaction, same original
    /// id and original purchase date, on the product it renews to (a downgrade takes effect
    /// here), on an invoice of its own.
    @discardableResult
    public func renew(originalTransactionId: String, period: TimeInterval? = nil) throws -> SimulatedPurchase {
        guard let index = purchases.lastIndex(where: { $0.originalTransactionId == originalTransactionId }),
            purchases[index].kind == .autoRenewable
        else {
            throw SimulatorError.unknown("auto-renewable subscription \(originalTransactionId)")
        }
        let last = purchases[index]
        let productId = last.autoRenewProductId ?? last.productId
        let product = catalogue[productId] ?? adHoc(productId, kind: .autoRenewable)
        guard last.isCommitment else {
            return newPeriod(
                after: last, product: product, start: last.expiresDate ?? Date(), token: last.appAccountToken, period: period, autoRenew: last.autoRenew)
        }
        // A commitment plan pays month after month until its last payment; then a new
        // commitment starts, unless the subscriber cancelled during this one.
        guard let payment = last.commitmentPayment, let payments = last.commitmentPayments else { throw SimulatorError.unknown("commitment") }
        let start = last.expiresDate ?? Date()
        if payment >= payments, last.commitmentRenews == false {
            throw SimulatorError.refused(code: 0, "the commitment ended after its last payment and the subscriber cancelled it: it does not renew")
        }
        var next = newPeriod(after: last, product: product, start: start, token: last.appAccountToken, period: month(from: start), autoRenew: true)
        let (nextPayment, nextStart) = payment >= payments ? (1, start) : (payment + 1, last.commitmentStart ?? start)
        let renews = payment >= payments ? true : last.commitmentRenews ?? true
        next = try update(next.transactionId) { p in
            (p.commitmentPayment, p.commitmentPayments, p.commitmentStart, p.commitmentRenews) = (nextPayment, payments, nextStart, renews)
            p.priceMilli = Self.payment(product, committed: payments)
            // Cancelled during the commitment: the last payment's period does not renew.
            p.autoRenew = !(nextPayment >= payments && !renews)
        }
        return next
    }

    private func month(from start: Date) -> TimeInterval { SimulatedProduct.Period.month.end(from: start).timeIntervalSince(start) }

    /// Apple refunded the transaction: in full, or `percentage` thousandths of a percent
    /// of it (a partial refund: `REFUND_PRORATED`).
    public func refund(transactionId: String, reason: Int = 0, percentage: Int? = nil, at date: Date = Date()) throws {
        let index = try indexOf(transactionId)
        purchases[index].cancellationDate = date
        purchases[index].cancellationReason = reason
        purchases[index].revocationPercentage = percentage.map { min(100_000, max(1, $0)) }
    }

    /// Apple reversed a refund it had granted (REFUND_REVERSED): the purchase counts again.
    public func reverseRefund(transactionId: String) throws {
        let index = try indexOf(transactionId)
        purchases[index].cancellationDate = nil
        purchases[index].cancellationReason = nil
        purchases[index].revocationPercentage = nil
    }

    /// Family Sharing access taken back: Apple revokes with a date, reason 0.
    public func revoke(transactionId: String, at date: Date = Date()) throws {
        try refund(transactionId: transactionId, reason: 0, at: date)
        purchases[try indexOf(transactionId)].isRevoked = true
    }

    /// Changes a transaction in place (renewal state, an offer, Family Sharing).
    func update(_ transactionId: String, _ change: (inout SimulatedPurchase) -> Void) throws -> SimulatedPurchase {
        let index = try indexOf(transactionId)
        change(&purchases[index])
        return purchases[index]
    }

    private func indexOf(_ transactionId: String) throws -> Int {
        guard let index = purchases.firstIndex(where: { $0.transactionId == transactionId }) else {
            throw SimulatorError.unknown("transaction \(transactionId)")
        }
        return index
    }

    /// The subscriber turns renewal off or on. On a commitment plan, turning it off stops
    /// only the commitment's renewal: the payments go on until the last one, whose period
    /// does not renew (Apple applies a cancellation after the committed payments).
    public func setAutoRenew(originalTransactionId: String, _ on: Bool) {
        guard let latest = purchases.lastIndex(where: { $0.originalTransactionId == originalTransactionId }) else { return }
        if purchases[latest].isCommitment {
            purchases[latest].commitmentRenews = on
            let lastPayment = (purchases[latest].commitmentPayment ?? 0) >= (purchases[latest].commitmentPayments ?? 0)
            purchases[latest].autoRenew = on || !lastPayment
            return
        }
        for index in purchases.indices where purchases[index].originalTransactionId == originalTransactionId {
            purchases[index].autoRenew = on
        }
    }

    /// The latest period of every subscription to `productId` active at `date`.
    func activeSubscriptions(of productId: String, sandbox: Bool, at date: Date) -> [SimulatedPurchase] {
        var latest: [String: SimulatedPurchase] = [:]
        for p in purchases where p.kind == .autoRenewable && p.isSandbox == sandbox { latest[p.originalTransactionId] = p }
        return latest.values.filter { $0.productId == productId && $0.subscriptionStatus(at: date) == 1 }.sorted { $0.transactionId < $1.transactionId }
    }

    /// The latest period of `appleId`'s subscription in `group`, if they ever had one.
    func latestSubscription(appleId: String, group: String, sandbox: Bool) -> SimulatedPurchase? {
        purchases.last { $0.appleId == appleId && $0.isSandbox == sandbox && $0.kind == .autoRenewable && catalogue[$0.productId]?.group == group }
    }

    /// A subscriber whose subscription ended buys in its group again: a new period of the
    /// same subscription (Apple keeps the original transaction id within a group).
    func resubscribe(_ otid: String, to product: SimulatedProduct, at date: Date, appAccountToken: String?) throws -> SimulatedPurchase {
        guard let last = chain(originalTransactionId: otid).last else { throw SimulatorError.unknown("subscription \(otid)") }
        return newPeriod(after: last, product: product, start: date, token: appAccountToken ?? last.appAccountToken)
    }

    /// An upgrade (or a crossgrade of the same duration): the current period ends now,
    /// marked `isUpgraded`, and a new one of `product` starts, on a new invoice.
    func upgrade(_ latest: SimulatedPurchase, to product: SimulatedProduct, at date: Date) throws -> SimulatedPurchase {
        let index = try indexOf(latest.transactionId)
        purchases[index].isUpgraded = true
        purchases[index].autoRenewProductId = nil
        return newPeriod(after: purchases[index], product: product, start: date, token: latest.appAccountToken)
    }

    /// The next transaction of a subscription: same original transaction id and original
    /// purchase date, its own invoice; what belonged to the last period (a refund, an
    /// upgrade, billing trouble, a waiting downgrade, an offer) does not carry over.
    private func newPeriod(
        after last: SimulatedPurchase, product: SimulatedProduct, start: Date, token: String?, period override: TimeInterval? = nil,
        autoRenew: Bool = true
    ) -> SimulatedPurchase {
        let id = newId()
        var period = last
        period.transactionId = String(id)
        period.productId = product.productId
        period.originalPurchaseDate = last.originalPurchaseDate ?? last.purchaseDate
        period.purchaseDate = start
        period.expiresDate = Self.periodEnd(product, from: start, override: override)
        period.webOrderLineItemId = Self.lineItem(id)
        period.appAccountToken = token
        period.autoRenew = autoRenew
        period.priceMilli = product.priceMilli
        period.currency = product.currency
        period.appleOrderId = Self.invoiceOrderId(id)
        period.isUpgraded = nil
        period.inBillingRetry = nil
        period.cancellationDate = nil
        period.cancellationReason = nil
        period.revocationPercentage = nil
        period.autoRenewProductId = nil
        period.gracePeriodExpiresDate = nil
        period.offerType = nil
        period.offerIdentifier = nil
        period.finishedAt = nil
        (period.commitmentPayment, period.commitmentPayments, period.commitmentStart, period.commitmentRenews) = (nil, nil, nil, nil)
        purchases.append(period)
        return period
    }

    /// Family Sharing: `member` gets a transaction of their own for the shared purchase.
    func share(_ transactionId: String, with member: String) throws -> SimulatedPurchase {
        let original = purchases[try indexOf(transactionId)]
        guard original.kind == .nonConsumable || original.kind == .autoRenewable else {
            throw SimulatorError.refused(code: 4_000_047, "only non-consumables and auto-renewable subscriptions can be shared with a family")
        }
        let id = newId()
        var shared = original
        shared.appleId = member
        shared.transactionId = String(id)
        shared.originalTransactionId = String(id)
        shared.familyShared = true
        shared.sharedFrom = original.originalTransactionId
        shared.appAccountToken = nil
        shared.webOrderLineItemId = original.webOrderLineItemId.map { _ in Self.lineItem(id) }
        purchases.append(shared)
        return shared
    }

    /// Family Sharing of a subscription: each member's own subscription takes a new period
    /// when the organizer's renews, of the same product and dates. Returns the members' new periods.
    func renewFamily(of organizer: SimulatedPurchase) -> [SimulatedPurchase] {
        let members = Set(purchases.filter { $0.sharedFrom == organizer.originalTransactionId && !$0.isRevoked }.map(\.originalTransactionId))
        return members.sorted().compactMap { otid in
            guard let last = chain(originalTransactionId: otid).last, let product = catalogue[organizer.productId] else { return nil }
            let start = organizer.purchaseDate
            return newPeriod(after: last, product: product, start: start, token: nil, period: organizer.expiresDate.map { $0.timeIntervalSince(start) })
        }
    }

    /// Set App Account Token: the purchase and every later period of it carry `token`.
    func setAppAccountToken(_ token: String, originalTransactionId: String) {
        for index in purchases.indices where purchases[index].originalTransactionId == originalTransactionId {
            purchases[index].appAccountToken = token
        }
    }

    public func purchases(appleId: String) -> [SimulatedPurchase] { purchases.filter { $0.appleId == appleId } }

    public func purchase(transactionId: String) -> SimulatedPurchase? { purchases.first { $0.transactionId == transactionId } }

    /// The purchases on one emailed invoice.
    public func purchases(appleOrderId: String) -> [SimulatedPurchase] { purchases.filter { $0.appleOrderId == appleOrderId } }

    /// Every purchase of the customer who made `anyId` (Get Transaction History accepts any
    /// of their transaction ids, or their app transaction id), oldest first.
    public func history(anyTransactionId anyId: String) -> [SimulatedPurchase] {
        guard let known = customer(of: anyId) else { return [] }
        return purchases.filter { $0.appleId == known.appleId && $0.isSandbox == known.isSandbox }
    }

    /// A purchase of the customer `anyId` names: a transaction id or an app transaction id.
    public func customer(of anyId: String) -> SimulatedPurchase? {
        purchase(transactionId: anyId) ?? purchases.first { $0.appTransactionId == anyId }
    }

    /// Apple's invoice order ids: "MK" and eight letters and digits. One per transaction
    /// id here (a bijection of it, so two purchases never share one by accident), unless a
    /// purchase was put on another's invoice.
    static func invoiceOrderId(_ id: Int64) -> String {
        let space: Int64 = 2_821_109_907_456  // 36^8
        // 1_000_003 is prime to 36, so multiplying by it permutes the space.
        var n = (id % space) * 1_000_003 % space
        var letters: [Character] = []
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for _ in 0..<8 {
            letters.append(alphabet[Int(n % 36)])
            n /= 36
        }
        return "MK" + String(letters.reversed())
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
            receiptType: sandbox ? "ProductionSandbox" : "Production", appItemId: AppStoreSimulator.appAppleId, bundleId: bundleId, appVersion: "1.0",
            receiptCreationDate: date, originalApplicationVersion: "1.0",
            inAppPurchases: purchases.map(\.inAppPurchase))
    }
}

public enum SimulatorError: Error, Sendable, CustomStringConvertible {
    case unknown(String)
    case cannotSave(String)
    case cannotLoad(String)
    /// Apple refused the action (an extension of an expired subscription, say), with its error code.
    case refused(code: Int, String)
    public var description: String {
        switch self {
        case .unknown(let what): "the simulator knows no \(what)"
        case .cannotSave(let path): "cannot save the simulator's state to \(path)"
        case .cannotLoad(let why): "cannot load the saved simulator: \(why)"
        case .refused(let code, let why): "Apple refused: \(why) (\(code))"
        }
    }
}
