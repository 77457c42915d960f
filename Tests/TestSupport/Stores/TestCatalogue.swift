import OrderDomain
import OrderStore

extension StoreSettings {
    /// The whole suite runs hundreds of tests at once on two cores, so a statement may wait
    /// its turn longer than production's 10 s; the tests of the deadline itself set theirs.
    public static let test = StoreSettings(
        bundleId: "com.example.game", isProduction: true, stuckThreshold: .minutes(5), databaseDeadline: .seconds(30))
}

/// The products every store test sells, one of each type.
public enum TestCatalogue {
    public static let coins = Product(productId: "coins_60", type: .consumable, displayName: "60 金币", priceMinor: 600, currency: "CNY")
    public static let noAds = Product(productId: "no_ads", type: .nonConsumable, displayName: "Remove ads", priceMinor: 1800, currency: "CNY")
    public static let pass = Product(productId: "pass_30d", type: .nonRenewing, displayName: "30-day pass", priceMinor: 3000, currency: "CNY")
    public static let vip = Product(productId: "vip_monthly", type: .autoRenewable, displayName: "月度 VIP", priceMinor: 2500, currency: "CNY")
    public static let vipQuarterly = Product(productId: "vip_quarterly", type: .autoRenewable, displayName: "季度 VIP", priceMinor: 6800, currency: "CNY")

    public static let all = [coins, noAds, pass, vip, vipQuarterly]
    public static var types: [String: ProductType] { Dictionary(uniqueKeysWithValues: all.map { ($0.productId, $0.type) }) }

    public static func install(in store: OrderStore) async throws {
        for product in all { try await store.catalogue.upsert(product) }
    }
}

/// A fixed clock for tests: 2026-11-01T00:00:00Z plus offsets.
public let t0: Millis = 1_793_491_200_000

/// Operators used by the tests.
public let alice = Operator(name: "alice", role: .support)
public let root = Operator(name: "root", role: .admin)
public let viewer = Operator(name: "vic", role: .viewer)

public func tx(
    _ id: String, product: String = "coins_60", original: String? = nil, at: Millis, expires: Millis? = nil,
    cancelled: Millis? = nil, quantity: Int = 1, line: String? = nil, token: String? = nil
) -> AppleTransaction {
    AppleTransaction(
        transactionId: id, originalTransactionId: original ?? id, productId: product, quantity: quantity,
        purchaseDate: at, expiresDate: expires, cancellationDate: cancelled, webOrderLineItemId: line, appAccountToken: token)
}

/// An Apple answer with status 0 holding `transactions`.
public func validReport(
    _ transactions: [AppleTransaction], latest: [AppleTransaction] = [], bundle: String = "com.example.game",
    environment: AppleEnvironment = .production, renewals: [AppleRenewalInfo] = []
) -> VerificationReport {
    VerificationReport(
        environment: environment, appleStatus: 0, body: #"{"status":0}"#,
        content: AppleReceiptContent(bundleId: bundle, inApp: transactions, latestReceiptInfo: latest, pendingRenewals: renewals))
}

public func statusReport(_ status: Int, retryable: Bool? = nil) -> VerificationReport {
    VerificationReport(environment: .production, appleStatus: status, isRetryable: retryable, body: #"{"status":\#(status)}"#)
}

public let outage = VerificationReport(environment: nil, appleStatus: nil, httpStatus: nil, transportError: "timed out after 30 s")

extension OrderStore {
    /// Places an order and stores its receipt (R1): the usual start of every scenario.
    @discardableResult
    public func paidOrder(_ id: String, account: String, product: String = "coins_60", at: Millis = t0, claimed: String? = nil) async throws -> Int64 {
        try await orders.place(orderId: id, accountId: account, productId: product, at: at)
        return try await orders.submit(orderId: id, receiptData: "receipt-of-\(id)", claimedTransactionId: claimed, at: at + 1000)
    }

    /// Places `id` for `account` and has Apple answer it 3 s later with `transactions`.
    @discardableResult
    public func answeredOrder(_ id: String, account: String, product: String = "coins_60", _ transactions: [AppleTransaction]) async throws
        -> VerificationOutcome
    {
        let submission = try await paidOrder(id, account: account, product: product)
        return try await apple.apply(orderId: id, submissionId: submission, report: validReport(transactions), at: t0 + 3000)
    }

    /// Places `id` at `at` and delivers it 3 s later: Apple answered with its purchase
    /// (`tx-ID`, made at `at` + 0.5 s) from `environment`.
    public func deliveredOrder(
        _ id: String, product: String = "coins_60", quantity: Int = 1, at: Millis = t0, environment: AppleEnvironment = .production,
        storefront: String? = nil
    ) async throws {
        try await orders.place(orderId: id, accountId: "acct-\(id)", productId: product, quantity: quantity, at: at)
        let submission = try await orders.submit(orderId: id, receiptData: "receipt-of-\(id)", claimedTransactionId: nil, at: at + 1000)
        var purchase = tx("tx-\(id)", product: product, at: at + 500, quantity: quantity)
        purchase.storefront = storefront
        _ = try await apple.apply(
            orderId: id, submissionId: submission, report: validReport([purchase], environment: environment), at: at + 3000)
    }
}
