import Foundation

/// The App Store Server API's read endpoints, answered from the ledger with JWS the
/// simulator signs. Each environment sees only its own purchases: a sandbox transaction
/// asked at production is "transaction id not found" (4040010), as at Apple.
public struct ServerAPIService: Sendable {
    let ledger: Ledger
    let minter: JWSMinter
    /// Pages of Get Transaction History and Get Refund History, as at Apple.
    static let pageSize = 20

    public init(ledger: Ledger, authority: CertificateAuthority) {
        self.ledger = ledger
        minter = JWSMinter(authority: authority)
    }

    static let notFound = SimulatorAnswer.apiError(4_040_010, "Transaction id not found.", status: 404)
    static let badRevision = SimulatorAnswer.apiError(4_000_005, "Invalid request revision.", status: 400)
    static let internalError = SimulatorAnswer.apiError(5_000_000, "An unknown error occurred.", status: 500)

    /// `GET /inApps/v1/transactions/{transactionId}`
    func transactionInfo(_ id: String, sandbox: Bool) async -> SimulatorAnswer {
        guard let purchase = await visible(id, sandbox: sandbox) else { return Self.notFound }
        guard let signed = try? await signTransaction(purchase) else { return Self.internalError }
        return .json(["signedTransactionInfo": signed])
    }

    /// `GET /inApps/v1|v2/history/{anyTransactionId}` with Apple's filters and paging.
    func history(_ id: String, query: Query, sandbox: Bool) async -> SimulatorAnswer {
        guard await visibleCustomer(id, sandbox: sandbox) != nil else { return Self.notFound }
        let filter: HistoryFilter
        do { filter = try HistoryFilter.parse(query) } catch { return error.answer }
        let catalogue = await ledger.catalogue
        var all = await ledger.history(anyTransactionId: id).filter { filter.admits($0, group: catalogue[$0.productId]?.group) }
        if filter.descending { all.reverse() }
        return await page(all, revision: query.first("revision"), sandbox: sandbox, extra: ["appAppleId": AppStoreSimulator.appAppleId])
    }

    /// `GET /inApps/v2/refund/lookup/{anyTransactionId}?revision=`
    func refundHistory(_ id: String, revision: String?, sandbox: Bool) async -> SimulatorAnswer {
        guard await visibleCustomer(id, sandbox: sandbox) != nil else { return Self.notFound }
        let refunded = await ledger.history(anyTransactionId: id).filter { $0.cancellationDate != nil }
        return await page(refunded, revision: revision, sandbox: sandbox, extra: [:])
    }

    /// `GET /inApps/v1/subscriptions/{anyTransactionId}?status=`: the last transaction and
    /// renewal info of each of the customer's auto-renewable subscriptions, by group,
    /// optionally only those in the given statuses (1 active … 5 revoked).
    func subscriptionStatuses(_ id: String, statuses: [String], sandbox: Bool, now: Date = Date()) async -> SimulatorAnswer {
        guard await visibleCustomer(id, sandbox: sandbox) != nil else { return Self.notFound }
        let wanted = statuses.map(Int.init)
        guard wanted.allSatisfy({ $0.map((1...5).contains) == true }) else { return .apiError(4_000_031, "Invalid status.", status: 400) }
        var originals: [String] = []
        for p in await ledger.history(anyTransactionId: id) where p.kind == .autoRenewable && !originals.contains(p.originalTransactionId) {
            originals.append(p.originalTransactionId)
        }
        var groups: [(id: String, last: [[String: Any]])] = []
        let catalogue = await ledger.catalogue
        for original in originals {
            guard let latest = await ledger.chain(originalTransactionId: original).last else { continue }
            let status = latest.subscriptionStatus(at: now)
            if !wanted.isEmpty, !wanted.contains(status) { continue }
            guard let transaction = try? await signTransaction(latest), let renewal = try? await signRenewal(original, at: now) else {
                return Self.internalError
            }
            let group = catalogue[latest.productId]?.group ?? SimulatedProduct.defaultGroup
            let item: [String: Any] = [
                "status": status, "originalTransactionId": original, "signedTransactionInfo": transaction, "signedRenewalInfo": renewal,
            ]
            if let index = groups.firstIndex(where: { $0.id == group }) { groups[index].last.append(item) } else { groups.append((group, [item])) }
        }
        return .json([
            "environment": environment(sandbox), "bundleId": ledger.bundleId, "appAppleId": AppStoreSimulator.appAppleId,
            "data": groups.map { ["subscriptionGroupIdentifier": $0.id, "lastTransactions": $0.last] },
        ])
    }

    /// `GET /inApps/v1/lookup/{orderId}`: status 0 and the invoice's transactions, or status 1.
    func lookUpOrder(_ orderId: String, sandbox: Bool) async -> SimulatorAnswer {
        let found = await ledger.purchases(appleOrderId: orderId).filter { $0.isSandbox == sandbox }
        var signed: [String] = []
        for purchase in found {
            guard let one = try? await signTransaction(purchase) else { return Self.internalError }
            signed.append(one)
        }
        return .json(["status": found.isEmpty ? 1 : 0, "signedTransactions": signed])
    }

    /// `GET /inApps/v1/transactions/appTransactions/{anyTransactionId}`: the customer's app
    /// transaction (their download of the app), signed.
    func appTransactionInfo(_ id: String, sandbox: Bool) async -> SimulatorAnswer {
        guard let customer = await visibleCustomer(id, sandbox: sandbox) else {
            return .apiError(4_040_019, "Invalid request. The app transaction does not exist.", status: 404)
        }
        guard let signed = try? await signAppTransaction(appleId: customer.appleId, sandbox: sandbox) else { return Self.internalError }
        return .json(["signedAppTransactionInfo": signed])
    }

    /// `JWSTransaction` of `purchase`, with its product's subscription group.
    func signTransaction(_ purchase: SimulatedPurchase, at date: Date = Date()) async throws -> String {
        try minter.sign(TransactionPayload(purchase, bundleId: ledger.bundleId, group: await ledger.catalogue[purchase.productId]?.group, signedAt: date))
    }

    /// `JWSRenewalInfo` of the subscription `originalTransactionId`.
    func signRenewal(_ originalTransactionId: String, at date: Date = Date()) async throws -> String {
        let chain = await ledger.chain(originalTransactionId: originalTransactionId)
        guard let latest = chain.last else { throw SimulatorError.unknown("subscription \(originalTransactionId)") }
        let renewsTo = await ledger.catalogue[latest.autoRenewProductId ?? latest.productId]
        return try minter.sign(RenewalPayload(latest: latest, chain: chain, renewsTo: renewsTo, signedAt: date))
    }

    /// `JWSAppTransaction` of `appleId`'s download of the app: from its first purchase here.
    func signAppTransaction(appleId: String, sandbox: Bool, at date: Date = Date()) async throws -> String {
        let first = await ledger.purchases(appleId: appleId).filter { $0.isSandbox == sandbox }.map(\.purchaseDate).min() ?? date
        return try minter.sign(
            AppTransactionPayload(
                bundleId: ledger.bundleId, appleId: appleId, sandbox: sandbox, originalPurchaseDate: first.addingTimeInterval(-86_400), signedAt: date))
    }

    private func visible(_ id: String, sandbox: Bool) async -> SimulatedPurchase? {
        guard let purchase = await ledger.purchase(transactionId: id), purchase.isSandbox == sandbox else { return nil }
        return purchase
    }

    /// A purchase of the customer `id` names (a transaction or app transaction id) in this environment.
    private func visibleCustomer(_ id: String, sandbox: Bool) async -> SimulatedPurchase? {
        guard let purchase = await ledger.customer(of: id), purchase.isSandbox == sandbox else { return nil }
        return purchase
    }

    func environment(_ sandbox: Bool) -> String { sandbox ? "Sandbox" : "Production" }

    /// One page of `all`; the revision token is the offset of the next page.
    private func page(_ all: [SimulatedPurchase], revision: String?, sandbox: Bool, extra: [String: Any]) async -> SimulatorAnswer {
        var start = 0
        if let revision {
            guard let offset = Int(revision.dropFirst("rev-".count)), revision.hasPrefix("rev-"), offset >= 0, offset <= all.count else {
                return Self.badRevision
            }
            start = offset
        }
        let end = min(start + Self.pageSize, all.count)
        var signed: [String] = []
        for purchase in all[start..<end] {
            guard let one = try? await signTransaction(purchase) else { return Self.internalError }
            signed.append(one)
        }
        var body: [String: Any] = [
            "revision": "rev-\(end)", "hasMore": end < all.count, "bundleId": ledger.bundleId,
            "environment": environment(sandbox), "signedTransactions": signed,
        ]
        body.merge(extra) { a, _ in a }
        return .json(body)
    }
}

/// A request's query parameters, each name with all its values in order.
public struct Query: Sendable {
    var values: [String: [String]]

    public init(_ pairs: [(String, String)]) {
        values = Dictionary(grouping: pairs, by: \.0).mapValues { $0.map(\.1) }
    }

    func first(_ name: String) -> String? { values[name]?.first }
    func all(_ name: String) -> [String] { values[name] ?? [] }
}

/// `JWSAppTransactionDecodedPayload`: the customer's download of the app.
struct AppTransactionPayload: Encodable {
    var receiptType: String
    var appAppleId = AppStoreSimulator.appAppleId
    var bundleId: String
    var applicationVersion = "1.0"
    var receiptCreationDate: Int64
    var originalPurchaseDate: Int64
    var originalApplicationVersion = "1.0"
    var deviceVerification = "aGVsbG8gZnJvbSB0aGUgc2ltdWxhdG9y"
    var deviceVerificationNonce = "9b9b8a1e-3a4f-4a7a-8f3e-0c1d2e3f4a5b"
    var appTransactionId: String
    var originalPlatform = "iOS"
    var signedDate: Int64

    init(bundleId: String, appleId: String, sandbox: Bool, originalPurchaseDate: Date, signedAt: Date) {
        receiptType = sandbox ? "Sandbox" : "Production"
        self.bundleId = bundleId
        receiptCreationDate = signedAt.milliseconds
        self.originalPurchaseDate = originalPurchaseDate.milliseconds
        appTransactionId = SimulatedPurchase.appTransactionId(appleId: appleId, sandbox: sandbox)
        signedDate = signedAt.milliseconds
    }
}
