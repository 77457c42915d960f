import Foundation
import SimulatorFaults

/// The simulated Google Play's memory: purchase tokens of one-time products and
/// subscriptions, their orders, acknowledgements and consumption, and what Google voided.
public actor PlayLedger {
    public private(set) var catalogue: PlayCatalogue
    private var purchases: [String: PlayPurchase] = [:]
    private var order: [String] = []
    public private(set) var voided: [VoidedRecord] = []
    /// Orders the developer refunded without revoking: refunded money, access kept, and, as
    /// at Google, absent from the voided purchases list.
    public private(set) var developerRefunds: [String: Date] = [:]
    private var nextOrder: Int64
    private var random: SplitMix

    public init(catalogue: PlayCatalogue = .standard, seed: UInt64 = 0x9A7_0001, firstOrder: Int64 = 33_120_000_000_000_001) {
        self.catalogue = catalogue
        random = SplitMix(seed: seed)
        nextOrder = firstOrder
    }

    /// What the ledger holds, to be saved beside a demo store and restored when the store is
    /// opened again: its purchases stay known to Google.
    public struct Saved: Codable, Sendable {
        var purchases: [PlayPurchase]
        var voided: [VoidedRecord]
        var developerRefunds: [String: Date]
        var nextOrder: Int64
    }

    public func saved() -> Saved {
        Saved(purchases: all, voided: voided, developerRefunds: developerRefunds, nextOrder: nextOrder)
    }

    /// Takes back what `saved` held. Tokens minted from now on come from a fresh seed, so none
    /// repeats a saved one.
    public func restore(_ saved: Saved) {
        purchases = Dictionary(saved.purchases.map { ($0.token, $0) }, uniquingKeysWith: { _, last in last })
        order = saved.purchases.map(\.token)
        voided = saved.voided
        developerRefunds = saved.developerRefunds
        nextOrder = saved.nextOrder
        random = SplitMix(seed: UInt64(truncatingIfNeeded: Int64(Date().timeIntervalSince1970 * 1_000_000)) ^ UInt64(saved.purchases.count))
    }

    /// Adds or replaces a product (Play Console's "create product").
    public func sell(_ product: PlayProduct) { catalogue.add(product) }

    public func purchase(token: String) -> PlayPurchase? { purchases[token] }

    /// Every purchase, oldest first.
    public var all: [PlayPurchase] { order.compactMap { purchases[$0] } }

    /// The purchase one of its orders (`GPA.…`, or a renewal's `GPA.…..N`) belongs to.
    public func purchase(orderId: String) -> PlayPurchase? {
        all.first { $0.orderId == orderId || $0.periods.contains { $0.orderId == orderId } }
    }

    /// Google's order ids: `GPA.` and 17 digits in groups of 4, 4, 4 and 5; one per purchase.
    private func newOrderId() -> String {
        defer { nextOrder += 1 }
        let digits = Array(String(nextOrder % 100_000_000_000_000_000).leftPadded(to: 17))
        return "GPA.\(String(digits[0..<4]))-\(String(digits[4..<8]))-\(String(digits[8..<12]))-\(String(digits[12..<17]))"
    }

    /// A purchase token as they look in the wild: 24 lowercase letters, `.AO-J1O`, then
    /// base64url. Opaque to everyone but Google.
    private func newToken() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let head = String((0..<24).map { _ in letters[Int(random.next() % 26)] })
        var tail = Data()
        for _ in 0..<12 { withUnsafeBytes(of: random.next()) { tail.append(contentsOf: $0) } }
        let encoded = tail.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "\(head).AO-J1O\(encoded)"
    }

    /// The player buys `productId` in `packageName`. A pending purchase (a slow payment
    /// method) has no order yet; a subscription's first period starts at `date`.
    public func buy(
        packageName: String, productId: String, account: String? = nil, profile: String? = nil, quantity: Int = 1, pending: Bool = false,
        test: Bool = false, region: String = "CN", at date: Date = Date(), linkedTo linked: String? = nil
    ) throws(PlaySimulatorError) -> PlayPurchase {
        guard let product = catalogue[productId] else { throw .unknown("product \(productId)") }
        let token = newToken()
        let subscription = product.kind == .subscription
        var purchase = PlayPurchase(
            token: token, packageName: packageName, productId: productId, kind: product.kind, orderId: pending ? nil : newOrderId(),
            purchaseTime: date, state: pending ? .pending : .purchased, acknowledged: false, consumed: false, quantity: subscription ? 1 : quantity,
            refundableQuantity: subscription ? 1 : quantity, obfuscatedAccountId: account, obfuscatedProfileId: profile, regionCode: region,
            isTest: test, priceMicros: product.priceMicros * Int64(subscription ? 1 : quantity), currency: product.currency,
            subscriptionState: subscription ? (pending ? .pending : .active) : nil, periods: [], autoRenew: subscription,
            linkedPurchaseToken: linked, etag: 1)
        if subscription, let orderId = purchase.orderId {
            purchase.periods = [PlayPurchase.Period(orderId: orderId, start: date, end: product.periodEnd(from: date))]
        }
        purchases[token] = purchase
        order.append(token)
        return purchase
    }

    /// Changes a purchase in place; its etag moves on.
    @discardableResult
    func change(_ token: String, _ body: (inout PlayPurchase) throws(PlaySimulatorError) -> Void) throws(PlaySimulatorError) -> PlayPurchase {
        guard var purchase = purchases[token] else { throw .unknown("purchase token \(token)") }
        try body(&purchase)
        purchase.etag += 1
        purchases[token] = purchase
        return purchase
    }

    /// A pending payment went through: the order exists now.
    public func completePending(_ token: String, at date: Date = Date()) throws(PlaySimulatorError) -> PlayPurchase {
        let product = catalogue[purchases[token]?.productId ?? ""]
        let orderId = newOrderId()
        return try change(token) { p throws(PlaySimulatorError) in
            guard p.state == .pending || p.subscriptionState == .pending else { throw .refused(400, "invalidPurchaseState", "the purchase is not pending") }
            p.state = .purchased
            p.orderId = orderId
            p.purchaseTime = date
            if p.kind == .subscription, let product {
                p.subscriptionState = .active
                p.periods = [PlayPurchase.Period(orderId: orderId, start: date, end: product.periodEnd(from: date))]
            }
        }
    }

    /// A pending payment never came: the purchase is cancelled and can never be granted.
    public func cancelPending(_ token: String) throws(PlaySimulatorError) -> PlayPurchase {
        try change(token) { p throws(PlaySimulatorError) in
            guard p.state == .pending || p.subscriptionState == .pending else { throw .refused(400, "invalidPurchaseState", "the purchase is not pending") }
            p.state = .cancelled
            if p.kind == .subscription { p.subscriptionState = .pendingPurchaseCanceled }
        }
    }

    /// The next period of a subscription: the same token, a new order id (`..0`, `..1`).
    public func renew(_ token: String) throws(PlaySimulatorError) -> PlayPurchase {
        guard let current = purchases[token], let product = catalogue[current.productId], let last = current.periods.last, let base = current.orderId else {
            throw .unknown("subscription \(token)")
        }
        guard current.kind == .subscription, current.autoRenew || current.subscriptionState == .onHold || current.subscriptionState == .inGracePeriod else {
            throw .refused(400, "invalidPurchaseState", "the subscription does not renew")
        }
        return try change(token) { p in
            p.periods.append(PlayPurchase.Period(orderId: "\(base)..\(p.periods.count - 1)", start: last.end, end: product.periodEnd(from: last.end)))
            p.subscriptionState = .active
        }
    }

    /// The subscriber (or the developer, or Google) stops renewal; access runs to the end.
    public func cancel(_ token: String, by who: String = "user", at date: Date = Date()) throws(PlaySimulatorError) -> PlayPurchase {
        try change(token) { p throws(PlaySimulatorError) in
            guard p.kind == .subscription else { throw .refused(400, "invalid", "not a subscription") }
            p.autoRenew = false
            p.subscriptionState = .canceled
            p.canceledBy = who
            p.canceledAt = date
        }
    }

    /// The subscriber turned renewal back on before the end (SUBSCRIPTION_RESTARTED).
    public func restart(_ token: String) throws(PlaySimulatorError) -> PlayPurchase {
        try change(token) { p in
            p.autoRenew = true
            p.subscriptionState = .active
            p.canceledBy = nil
            p.canceledAt = nil
        }
    }

    /// A renewal charge failed: grace (access kept), then account hold (access lost).
    public func setState(_ token: String, _ state: PlayPurchase.SubscriptionState, pausedUntil: Date? = nil) throws(PlaySimulatorError) -> PlayPurchase {
        try change(token) { p in
            p.subscriptionState = state
            p.pausedUntil = pausedUntil
        }
    }

    /// The subscription ended: its last period is over.
    public func expire(_ token: String, at date: Date = Date()) throws(PlaySimulatorError) -> PlayPurchase {
        try change(token) { p in
            if let last = p.periods.indices.last, p.periods[last].end > date { p.periods[last].end = date }
            p.autoRenew = false
            p.subscriptionState = .expired
        }
    }

    /// An upgrade or downgrade: a new token for `productId`, linked to the old one, which is
    /// canceled by replacement and ends now.
    public func changePlan(_ token: String, to productId: String, at date: Date = Date()) throws(PlaySimulatorError) -> PlayPurchase {
        guard let old = purchases[token] else { throw .unknown("subscription \(token)") }
        let replaced = try buy(
            packageName: old.packageName, productId: productId, account: old.obfuscatedAccountId, profile: old.obfuscatedProfileId, test: old.isTest,
            region: old.regionCode, at: date, linkedTo: token)
        try change(token) { p in
            p.autoRenew = false
            p.subscriptionState = .expired
            p.canceledBy = "replacement"
            p.canceledAt = date
            if let last = p.periods.indices.last, p.periods[last].end > date { p.periods[last].end = date }
        }
        return replaced
    }

    /// The developer's server acknowledged the purchase (within three days, or Google refunds it).
    public func acknowledge(_ token: String, at date: Date = Date()) throws(PlaySimulatorError) -> PlayPurchase {
        try change(token) { p throws(PlaySimulatorError) in
            guard p.state == .purchased, p.subscriptionState != .pending else {
                throw .refused(400, "invalidPurchaseState", "only a purchased item can be acknowledged")
            }
            if !p.acknowledged { p.acknowledgedAt = date }
            p.acknowledged = true
        }
    }

    /// The developer's server consumed a consumable: it can be bought again. Consuming
    /// acknowledges it too.
    public func consume(_ token: String, at date: Date = Date()) throws(PlaySimulatorError) -> PlayPurchase {
        try change(token) { p throws(PlaySimulatorError) in
            guard p.kind == .consumable else { throw .refused(400, "invalid", "only a consumable product can be consumed") }
            guard p.state == .purchased else { throw .refused(400, "invalidPurchaseState", "only a purchased item can be consumed") }
            guard !p.consumed else { throw .refused(400, "invalidPurchaseState", "the purchase is already consumed") }
            p.consumed = true
            p.consumedAt = date
            if !p.acknowledged { p.acknowledgedAt = date }
            p.acknowledged = true
        }
    }

    /// Google voids a purchase: a refund, a chargeback, or three days unacknowledged. A
    /// quantity-based partial refund voids `quantity` units of a multi-quantity purchase. A
    /// voided subscription is revoked: it ends now.
    @discardableResult
    public func void(
        _ token: String, orderId: String? = nil, quantity: Int? = nil, source: Int = 0, reason: Int = 1, at date: Date = Date()
    ) throws(PlaySimulatorError) -> VoidedRecord {
        guard let purchase = purchases[token], let paid = orderId ?? purchase.latestOrderId else { throw .unknown("purchase token \(token)") }
        if let quantity {
            guard purchase.kind != .subscription, quantity >= 1, quantity <= purchase.refundableQuantity else {
                throw .refused(400, "invalid", "a partial refund voids 1 to \(purchase.refundableQuantity) units of a one-time purchase")
            }
        }
        try change(token) { p in
            p.refundableQuantity -= quantity ?? p.refundableQuantity
            if p.kind == .subscription {
                p.autoRenew = false
                p.subscriptionState = .expired
                if let last = p.periods.indices.last, p.periods[last].end > date { p.periods[last].end = date }
            }
        }
        let record = VoidedRecord(
            token: token, orderId: paid, purchaseTime: purchase.purchaseTime, voidedTime: date, source: source, reason: reason, quantity: quantity,
            isSubscription: purchase.kind == .subscription)
        voided.append(record)
        return record
    }

    /// `orders.refund` without `revoke`: the money goes back, the purchase stays.
    public func recordDeveloperRefund(orderId: String, at date: Date = Date()) throws(PlaySimulatorError) {
        guard purchase(orderId: orderId) != nil else { throw .refused(404, "notFound", "No order \(orderId).") }
        developerRefunds[orderId] = date
    }

    /// Google's three-day rule: every purchase left unacknowledged past `deadline` after it
    /// was bought is refunded and revoked (void reason 8). Returns what it voided.
    public func refundUnacknowledged(olderThan deadline: TimeInterval = 3 * 86_400, at date: Date = Date()) -> [VoidedRecord] {
        var done: [VoidedRecord] = []
        for purchase in all where purchase.state == .purchased && !purchase.acknowledged && date.timeIntervalSince(purchase.purchaseTime) >= deadline {
            if purchase.kind == .subscription, purchase.subscriptionState == .expired { continue }
            if let record = try? void(purchase.token, source: 2, reason: 8, at: date) { done.append(record) }
        }
        return done
    }

    /// Defer (Play's extension): the subscription's latest period ends `seconds` later.
    /// `etag` must be the current one, as Google asks of subscriptionsv2.defer.
    public func `defer`(_ token: String, by seconds: TimeInterval, etag: String) throws(PlaySimulatorError) -> PlayPurchase {
        guard let current = purchases[token] else { throw .unknown("subscription \(token)") }
        guard "\(current.etag)" == etag else { throw .refused(409, "conflict", "the etag does not match the subscription's current one") }
        guard current.kind == .subscription, let last = current.periods.indices.last, [.active, .canceled, .inGracePeriod].contains(current.subscriptionState)
        else { throw .refused(400, "invalidPurchaseState", "only a live subscription can be deferred") }
        return try change(token) { p in p.periods[last].end = p.periods[last].end.addingTimeInterval(seconds) }
    }

    /// The voided purchases Google recorded in [`start`, `end`]: one-time ones, subscriptions
    /// too with `type` 1, quantity-based partial refunds only when asked for.
    public func voided(from start: Date, to end: Date, type: Int, includePartial: Bool) -> [VoidedRecord] {
        voided.filter { record in
            record.voidedTime >= start && record.voidedTime <= end && (type == 1 || !record.isSubscription) && (includePartial || record.quantity == nil)
        }
    }
}

/// What the simulated Google refuses, in Google's words: its HTTP status and `reason`.
public enum PlaySimulatorError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknown(String)
    case refused(Int, String, String)

    public var description: String {
        switch self {
        case .unknown(let what): "Google Play knows no \(what)"
        case .refused(_, let reason, let message): "Google Play refused (\(reason)): \(message)"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
