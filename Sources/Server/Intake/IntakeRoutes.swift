import AppStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OrderDomain
import OrderStore
import Receipts

/// The intake API for game servers (`openapi.yaml` is the contract):
/// - `POST /v1/orders` places an order (idempotent on the order id);
/// - `POST /v1/orders/{id}/receipts` stores a receipt for it and answers `202` only once it
///   is committed (R1), with the verification owed to the worker in the same commit;
///   `Idempotency-Key` makes a retry return the first answer;
/// - `GET /v1/orders/{id}` reads the order back;
/// - `POST /v1/orders/{id}/consumption` keeps what the game reports of the purchase's use,
///   the evidence support answers Apple's refund requests with;
/// - `GET /v1/accounts/{id}/entitlements`: the subscriptions R8 gave the account and its
///   lasting purchases.
/// Every call needs a game server's bearer token.
struct IntakeRoutes: Sendable {
    let store: OrderStore
    let tokens: ClientTokens
    /// Checks StoreKit 2 signed transactions at the door; nil when Apple is not configured.
    let apple: AppleVerifier?
    /// The Google Play packages this server takes purchases of; empty without Google Play.
    let playPackages: [String]
    /// Submissions that arrive together share one durable commit.
    let receipts: GroupCommit<ReceiptSubmission, SubmittedReceipt>

    init(store: OrderStore, tokens: ClientTokens, apple: AppleVerifier?, playPackages: [String] = [], metrics: ServeMetrics) {
        self.store = store
        self.tokens = tokens
        self.apple = apple
        self.playPackages = playPackages
        receipts = GroupCommit(concurrency: store.concurrentWriters) { batch in
            let results = try await CallPriority.answering { try await store.orders.submit(batch) }
            metrics.intakeCommit(size: batch.count)
            return results
        }
    }

    /// Bodies over this are refused before they are read: Apple's largest receipts are a
    /// few hundred KB in base64.
    static let maxBody = 1 << 20

    func add(to router: Router<ServeContext>) {
        let games = router.group().add(middleware: ClientTokenCheck(tokens: tokens))
        games.post("/v1/orders") { request, _ in try await placeOrder(request) }
        games.post("/v1/orders/:id/receipts") { request, context in
            try await submitReceipt(request, orderId: try Self.pathId(context), client: try context.requireClient())
        }
        games.get("/v1/orders/:id") { _, context in
            let id = try Self.pathId(context)
            guard let order = try await store.orders.find(id) else { throw StoreError.notFound(kind: .order, id: id) }
            return JSONAnswer.response(.ok, encoding: IntakeAnswers.OrderAnswer(order))
        }
        games.post("/v1/orders/:id/consumption") { request, context in
            try await reportConsumption(request, orderId: try Self.pathId(context), client: try context.requireClient())
        }
        games.get("/v1/accounts/:id/entitlements") { _, context in
            let id = context.parameters.get("id") ?? ""
            try Self.checkId(id, "account id in the path")
            return JSONAnswer.response(.ok, encoding: IntakeAnswers.EntitlementsAnswer(try await store.accounts.entitlements(id)))
        }
    }

    private struct PlaceOrder: Decodable {
        var orderId: String
        var accountId: String
        var productId: String
        var quantity: Int?
    }

    private struct SubmitReceipt: Decodable {
        var receiptData: String?
        var signedTransaction: String?
        var transactionId: String?
        var googlePlay: GooglePlayPurchase?
    }

    /// A Google Play purchase as the game's client got it from Play Billing.
    private struct GooglePlayPurchase: Decodable {
        var packageName: String
        var purchaseToken: String
        /// Defaults to the order's product.
        var productId: String?
        /// `Purchase.getOriginalJson()` and `getSignature()`: kept as the player's evidence.
        var purchaseJson: String?
        var signature: String?
        /// Consume a consumable once delivered, so the player can buy it again.
        var consume: Bool?
    }

    private struct ReportConsumption: Decodable {
        var consumedPercent: Double
        var playTime: String?
        var customerConsented: Bool?
    }

    private func reportConsumption(_ request: Request, orderId: String, client: String) async throws -> Response {
        let body = try Self.decode(ReportConsumption.self, try await request.body.collect(upTo: Self.maxBody))
        guard body.consumedPercent.isFinite, (0...100).contains(body.consumedPercent) else {
            throw Problem.badRequest("consumed_percent: 0 to 100")
        }
        var playTime: ConsumptionReport.PlayTime?
        if let band = body.playTime {
            guard let known = ConsumptionReport.PlayTime(rawValue: band) else {
                throw Problem.badRequest("play_time: one of \(ConsumptionReport.PlayTime.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            playTime = known
        }
        let report = try await store.refunds.reportConsumption(
            orderId: orderId, consumptionPercentage: Int((body.consumedPercent * 1000).rounded()), playTime: playTime,
            customerConsented: body.customerConsented ?? false, client: client)
        return JSONAnswer.response(.created, encoding: IntakeAnswers.ConsumptionAnswer(report))
    }

    private func placeOrder(_ request: Request) async throws -> Response {
        let body = try Self.decode(PlaceOrder.self, try await request.body.collect(upTo: Self.maxBody))
        try Self.checkId(body.orderId, "order_id")
        try Self.checkId(body.accountId, "account_id")
        try Self.checkId(body.productId, "product_id")
        let quantity = body.quantity ?? 1
        guard (1...1_000).contains(quantity) else { throw Problem.badRequest("quantity: must be 1 to 1000, got \(quantity)") }
        let (order, created) = try await store.orders.ensure(orderId: body.orderId, accountId: body.accountId, productId: body.productId, quantity: quantity)
        return JSONAnswer.response(created ? .created : .ok, encoding: IntakeAnswers.OrderAnswer(order))
    }

    private func submitReceipt(_ request: Request, orderId: String, client: String) async throws -> Response {
        let raw = try await request.body.collect(upTo: Self.maxBody)
        let body = try Self.decode(SubmitReceipt.self, raw)
        let sent = [body.receiptData != nil, body.signedTransaction != nil, body.googlePlay != nil].filter { $0 }.count
        guard sent == 1 else { throw Problem.badRequest("receipt_data, signed_transaction or google_play: send exactly one") }
        if let play = body.googlePlay {
            return try await submit(request, raw: raw, orderId: orderId, client: client, evidence: .googlePlay(try playSubmission(play)))
        }
        if let data = body.receiptData, data.isEmpty || Data(base64Encoded: data) == nil { throw Problem.badRequest("receipt_data: not base64") }
        if let id = body.transactionId, id.isEmpty || id.count > 64 || !id.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
            throw Problem.badRequest("transaction_id: Apple's transaction ids are up to 64 digits")
        }
        guard let signed = body.signedTransaction else {
            return try await submit(
                request, raw: raw, orderId: orderId, client: client, evidence: .appReceipt(body.receiptData ?? ""), claimed: body.transactionId)
        }
        let claimed = try await signedTransactionId(
            signed, claimed: body.transactionId, app: try await store.orders.find(orderId)?.app ?? store.settings.bundleId)
        return try await submit(request, raw: raw, orderId: orderId, client: client, evidence: .signedTransaction(signed), claimed: claimed)
    }

    /// Stores a submission (R1) and answers 202, or with `?wait=` the verdict if it comes in time.
    private func submit(_ request: Request, raw: ByteBuffer, orderId: String, client: String, evidence: PurchaseEvidence, claimed: String? = nil)
        async throws
        -> Response
    {
        let idempotency = request.headers[Self.idempotencyKey].map { key in
            IdempotencyKey(
                client: client, key: String(key.prefix(200)),
                requestHash: SHA256.hash(data: Data("\(orderId)\n".utf8) + Data(buffer: raw)).map { String(format: "%02x", $0) }.joined())
        }
        let wait = try Self.waitSeconds(request)
        let submitted = try await receipts.submit(
            ReceiptSubmission(orderId: orderId, evidence: evidence, claimedTransactionId: claimed, idempotency: idempotency))
        // Stored: the 202 is owed whatever happens next. With `?wait=`, the player may see
        // the verdict at once when Apple answers quickly; 200 says it came.
        let order = wait > .zero ? try await RequestsInFlight.waiting { try await verdict(orderId, within: wait) } : submitted.order
        let answer = IntakeAnswers.OrderAnswer(order, submissionId: submitted.id)
        // Without ?wait= it is always 202 (a retry with the same Idempotency-Key too). A
        // verify_retry is no verdict: Apple could not answer yet.
        let decided = wait > .zero && order.state != .receiptReceived && order.state != .verifyRetry
        return JSONAnswer.response(decided ? .ok : .accepted, encoding: answer)
    }

    /// A Google Play purchase is checked for what can be checked without Google: a package
    /// this studio configured, a token of Google's form, the client's purchase JSON (when
    /// sent) naming the same token. Google is asked by the worker.
    private func playSubmission(_ play: GooglePlayPurchase) throws -> PlaySubmission {
        guard playPackages.contains(play.packageName) else {
            throw Problem.badRequest(
                playPackages.isEmpty
                    ? "google_play: this server has no Google Play configured ([google_play] in iapdesk.toml)"
                    : "google_play.package_name: not one of this server's packages (\(playPackages.joined(separator: ", ")))")
        }
        guard PlaySubmission.isPlausibleToken(play.purchaseToken) else {
            throw Problem.badRequest("google_play.purchase_token: not a Google Play purchase token")
        }
        if let product = play.productId { try Self.checkId(product, "google_play.product_id") }
        if let json = play.purchaseJson {
            guard json.utf8.count <= 16_384, let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
                throw Problem.badRequest("google_play.purchase_json: the client's purchase JSON, at most 16 KB")
            }
            if let token = object["purchaseToken"] as? String, token != play.purchaseToken {
                throw Problem.badRequest("google_play.purchase_json: it names another purchase token")
            }
        }
        if let signature = play.signature, signature.utf8.count > 2048 || Data(base64Encoded: signature) == nil {
            throw Problem.badRequest("google_play.signature: base64, as Play Billing gives it")
        }
        return PlaySubmission(
            packageName: play.packageName, productId: play.productId, purchaseToken: play.purchaseToken, purchaseJSON: play.purchaseJson,
            signature: play.signature, consume: play.consume ?? false)
    }

    /// A StoreKit 2 signed transaction is checked before it is stored — signature, chain to
    /// the configured roots, the bundle id of the order's app — and its transaction id is
    /// what the worker asks the Server API about (verifyReceipt cannot read a JWS).
    private func signedTransactionId(_ compact: String, claimed: String?, app: String) async throws -> String {
        guard let apple, apple.serverAPI != nil else {
            throw Problem.badRequest("signed_transaction: this server has no App Store Server API key to verify StoreKit 2 purchases with; send receipt_data")
        }
        let transaction: JWSTransaction
        do {
            transaction = try await JWS(compact: compact).verified(as: JWSTransaction.self, trust: apple.settings.trust, bundleId: app)
        } catch {
            throw Problem.badRequest("signed_transaction: \(error)")
        }
        guard let id = transaction.transactionId else { throw Problem.badRequest("signed_transaction: it names no transactionId") }
        if let claimed, claimed != id { throw Problem.badRequest("transaction_id: \(claimed) is not the signed transaction's \(id)") }
        return id
    }

    /// `?wait=SECONDS` (0 to 10, fractions allowed).
    static func waitSeconds(_ request: Request) throws -> Duration {
        guard let text = request.uri.queryParameters.get("wait") else { return .zero }
        guard let seconds = Double(text), seconds.isFinite, (0...10).contains(seconds) else { throw Problem.badRequest("wait: 0 to 10 seconds") }
        return .milliseconds(Int(seconds * 1000))
    }

    /// The order once the worker (here or in another process) moved it on from
    /// `receipt_received`, or as it stands when `wait` runs out.
    private func verdict(_ orderId: String, within wait: Duration) async throws -> Order {
        let deadline = ContinuousClock.now + wait
        while true {
            guard let order = try await store.orders.find(orderId) else { throw StoreError.notFound(kind: .order, id: orderId) }
            if order.state != .receiptReceived || ContinuousClock.now >= deadline { return order }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private static let idempotencyKey = HTTPField.Name("Idempotency-Key") ?? .contentType

    /// Decodes a JSON body; a failure names the field at fault.
    static func decode<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(T.self, from: Data(buffer: buffer))
        } catch DecodingError.keyNotFound(let key, _) {
            throw Problem.badRequest("\(snakeCase(key.stringValue)): required")
        } catch DecodingError.typeMismatch(let expected, let context), DecodingError.valueNotFound(let expected, let context) {
            // A mismatch at the top is a body of the wrong kind (an array, a string).
            guard !context.codingPath.isEmpty else { throw Problem.badRequest("the body is not a JSON object") }
            let kind =
                expected == String.self ? "a string" : expected == Double.self ? "a number" : expected == Bool.self ? "true or false" : "an integer"
            throw Problem.badRequest("\(context.codingPath.map { snakeCase($0.stringValue) }.joined(separator: ".")): expected \(kind)")
        } catch {
            throw Problem.badRequest("the body is not a JSON object")
        }
    }

    private static func snakeCase(_ name: String) -> String {
        name.reduce(into: "") { out, c in out += c.isUppercase ? "_" + c.lowercased() : String(c) }
    }

    private static func pathId(_ context: ServeContext) throws -> String {
        let id = context.parameters.get("id") ?? ""
        try checkId(id, "order id in the path")
        return id
    }

    /// Ids are 1 to 200 code points (as JSON Schema counts them), without NUL, which
    /// PostgreSQL's text cannot hold. Anything else is kept and sanitized when shown.
    private static func checkId(_ value: String, _ field: String) throws {
        guard !value.isEmpty, value.unicodeScalars.count <= 200 else { throw Problem.badRequest("\(field): 1 to 200 characters") }
        guard !value.unicodeScalars.contains("\u{0}") else { throw Problem.badRequest("\(field): must not contain NUL") }
    }
}
