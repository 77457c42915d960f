import Foundation

/// The App Store Server API endpoints iapdesk uses, answered from the ledger with JWS the
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

    /// `GET /inApps/v1/transactions/{transactionId}`
    func transactionInfo(_ id: String, sandbox: Bool) async -> SimulatorAnswer {
        guard let purchase = await visible(id, sandbox: sandbox) else { return Self.notFound }
        guard let signed = try? sign(purchase) else { return Self.internalError }
        return .json(["signedTransactionInfo": signed])
    }

    /// `GET /inApps/v2/history/{anyTransactionId}?revision=&sort=`
    func history(_ id: String, revision: String?, descending: Bool, sandbox: Bool) async -> SimulatorAnswer {
        guard await visible(id, sandbox: sandbox) != nil else { return Self.notFound }
        var all = await ledger.history(anyTransactionId: id)
        if descending { all.reverse() }
        return await page(all, revision: revision, sandbox: sandbox, extra: ["appAppleId": AppStoreSimulator.appAppleId])
    }

    /// `GET /inApps/v2/refund/lookup/{anyTransactionId}?revision=`
    func refundHistory(_ id: String, revision: String?, sandbox: Bool) async -> SimulatorAnswer {
        guard await visible(id, sandbox: sandbox) != nil else { return Self.notFound }
        let refunded = await ledger.history(anyTransactionId: id).filter { $0.cancellationDate != nil }
        return await page(refunded, revision: revision, sandbox: sandbox, extra: [:])
    }

    /// `GET /inApps/v1/subscriptions/{anyTransactionId}`: the last transaction and renewal
    /// info of each of the customer's auto-renewable subscriptions.
    func subscriptionStatuses(_ id: String, sandbox: Bool, now: Date = Date()) async -> SimulatorAnswer {
        guard await visible(id, sandbox: sandbox) != nil else { return Self.notFound }
        var originals: [String] = []
        for p in await ledger.history(anyTransactionId: id) where p.kind == .autoRenewable && !originals.contains(p.originalTransactionId) {
            originals.append(p.originalTransactionId)
        }
        var last: [[String: Any]] = []
        for original in originals {
            guard let latest = await ledger.chain(originalTransactionId: original).last else { continue }
            let status = latest.isRevoked ? 5 : (latest.expiresDate ?? now) > now ? 1 : 2
            guard let transaction = try? sign(latest), let renewal = try? minter.sign(RenewalPayload(latest, signedAt: now)) else { return Self.internalError }
            last.append(["status": status, "originalTransactionId": original, "signedTransactionInfo": transaction, "signedRenewalInfo": renewal])
        }
        return .json([
            "environment": environment(sandbox), "bundleId": ledger.bundleId, "appAppleId": AppStoreSimulator.appAppleId,
            "data": last.isEmpty ? [] : [["subscriptionGroupIdentifier": "21000001", "lastTransactions": last]],
        ])
    }

    /// `GET /inApps/v1/lookup/{orderId}`: status 0 and the invoice's transactions, or status 1.
    func lookUpOrder(_ orderId: String, sandbox: Bool) async -> SimulatorAnswer {
        let found = await ledger.purchases(appleOrderId: orderId).filter { $0.isSandbox == sandbox }
        guard let signed = try? found.map({ try sign($0) }) else { return Self.internalError }
        return .json(["status": found.isEmpty ? 1 : 0, "signedTransactions": signed])
    }

    static let internalError = SimulatorAnswer.apiError(5_000_000, "An unknown error occurred.", status: 500)

    private func visible(_ id: String, sandbox: Bool) async -> SimulatedPurchase? {
        guard let purchase = await ledger.purchase(transactionId: id), purchase.isSandbox == sandbox else { return nil }
        return purchase
    }

    private func sign(_ purchase: SimulatedPurchase) throws -> String {
        try minter.sign(TransactionPayload(purchase, bundleId: ledger.bundleId, signedAt: Date()))
    }

    private func environment(_ sandbox: Bool) -> String { sandbox ? "Sandbox" : "Production" }

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
        guard let signed = try? all[start..<end].map({ try sign($0) }) else { return Self.internalError }
        var body: [String: Any] = [
            "revision": "rev-\(end)", "hasMore": end < all.count, "bundleId": ledger.bundleId,
            "environment": environment(sandbox), "signedTransactions": signed,
        ]
        body.merge(extra) { a, _ in a }
        return .json(body)
    }
}
