import Foundation

/// The App Store Server API's actions: Send Consumption Information, Extend a Subscription
/// Renewal Date (one, or all active subscribers of a product), Set App Account Token and
/// Request a Test Notification, with Apple's eligibility rules and error codes, and the
/// notifications Apple sends for them (RENEWAL_EXTENDED, RENEWAL_EXTENSION, TEST).
extension AppStoreSimulator {
    /// Apple's extension rules: at most 90 days at a time, at most two in 365 days.
    static let maxExtensionDays = 90
    static let maxExtensionsPerYear = 2

    /// `PUT /inApps/v2/transactions/consumption/{transactionId}` (202, no body).
    func sendConsumption(_ transactionId: String, body: [String: Any], sandbox: Bool) async -> SimulatorAnswer {
        guard let purchase = await ledger.purchase(transactionId: transactionId), purchase.isSandbox == sandbox else {
            return ServerAPIService.notFound
        }
        guard purchase.familyShared != true else {
            return .apiError(4_000_185, "Invalid request. Family Sharing transactions aren't supported by this endpoint.", status: 400)
        }
        guard purchase.kind != .nonConsumable else {
            return .apiError(4_000_043, "Invalid request. The transaction id parameter must represent a consumable in-app purchase.", status: 400)
        }
        guard let consented = body["customerConsented"] as? Bool, consented else {
            return .apiError(4_000_035, "Invalid request. The customer consented field is required and must indicate the customer consented.", status: 400)
        }
        guard body["sampleContentProvided"] is Bool else {
            return .apiError(4_000_041, "Invalid request. The sample content provided field is invalid.", status: 400)
        }
        guard let delivery = body["deliveryStatus"] as? String, Self.deliveryStatuses.contains(delivery) else {
            return .apiError(4_000_036, "Invalid request. The delivery status field is invalid.", status: 400)
        }
        if let share = body["consumptionPercentage"], !((share as? Int).map { (0...100_000).contains($0) } ?? false) {
            return .apiError(4_000_000, "Invalid request. The consumption percentage must be 0 to 100000.", status: 400)
        }
        if let preference = body["refundPreference"], !((preference as? String).map(Self.refundPreferences.contains) ?? false) {
            return .apiError(4_000_000, "Invalid request. The refund preference field is invalid.", status: 400)
        }
        await actions.recordConsumption(transactionId, body: body.mapValues { "\($0)" })
        return SimulatorAnswer(status: 202, body: [])
    }

    static let deliveryStatuses: Set = [
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
    ]
    static let refundPreferences: Set = ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]

    /// `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`
    func extendRenewalDate(_ originalTransactionId: String, body: [String: Any], sandbox: Bool, now: Date = Date()) async -> SimulatorAnswer {
        let request: ExtensionRequest
        do { request = try ExtensionRequest.parse(body, mass: false) } catch { return error.answer }
        let chain = await ledger.chain(originalTransactionId: originalTransactionId)
        guard let latest = chain.last, latest.isSandbox == sandbox, latest.kind == .autoRenewable else {
            return .apiError(4_040_005, "Original transaction id not found.", status: 404)
        }
        switch await extend(latest, by: request.days, now: now) {
        case .failure(let refusal):
            return refusal.answer
        case .success(let extended):
            await sendLogged(try? await notification("RENEWAL_EXTENDED", about: extended, signedAt: now))
            return .json([
                "originalTransactionId": originalTransactionId, "webOrderLineItemId": String(extended.webOrderLineItemId ?? 0),
                "success": true, "effectiveDate": extended.expiresDate?.milliseconds ?? 0,
            ])
        }
    }

    /// `POST /inApps/v1/subscriptions/extend/mass`: answered at once with the request id;
    /// every active subscriber of the product is extended in the background, each one
    /// reported as it is processed (RENEWAL_EXTENDED, or RENEWAL_EXTENSION/FAILURE) and the
    /// end as RENEWAL_EXTENSION/SUMMARY.
    func extendForAll(body: [String: Any], sandbox: Bool) async -> SimulatorAnswer {
        let request: ExtensionRequest
        do { request = try ExtensionRequest.parse(body, mass: true) } catch { return error.answer }
        let productId = request.productId ?? ""
        guard await actions.startMassExtension(request.requestIdentifier, productId: productId) else {
            return .apiError(4_000_011, "Invalid request identifier: already used.", status: 400)
        }
        Task {
            let now = Date()
            var succeeded: Int64 = 0
            var failed: Int64 = 0
            for latest in await ledger.activeSubscriptions(of: productId, sandbox: sandbox, at: now) {
                switch await extend(latest, by: request.days, now: now) {
                case .success(let extended):
                    succeeded += 1
                    await sendLogged(try? await notification("RENEWAL_EXTENDED", about: extended, signedAt: now))
                case .failure:
                    failed += 1
                    await sendLogged(try? await notification("RENEWAL_EXTENSION", subtype: "FAILURE", about: latest, signedAt: now))
                }
            }
            await actions.finishMassExtension(request.requestIdentifier, succeeded: succeeded, failed: failed)
            let summary = NotificationPayload.Summary(
                requestIdentifier: request.requestIdentifier, environment: serverAPI.environment(sandbox), bundleId: bundleId, productId: productId,
                storefrontCountryCodes: request.storefronts, succeededCount: succeeded, failedCount: failed)
            await sendLogged(
                try? notification(
                    NotificationPayload(
                        notificationType: "RENEWAL_EXTENSION", subtype: "SUMMARY", notificationUUID: UUID().uuidString.lowercased(),
                        signedDate: Date().milliseconds, summary: summary),
                    sandbox: sandbox, about: []))
        }
        return .json(["requestIdentifier": request.requestIdentifier])
    }

    /// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`
    func massExtensionStatus(productId: String, requestIdentifier: String) async -> SimulatorAnswer {
        guard let status = await actions.massExtension(requestIdentifier), status.productId == productId else {
            return .apiError(4_040_009, "Invalid request. The status request does not exist.", status: 404)
        }
        var body: [String: Any] = ["requestIdentifier": requestIdentifier, "complete": status.completeDate != nil]
        body["completeDate"] = status.completeDate?.milliseconds
        body["succeededCount"] = status.succeeded
        body["failedCount"] = status.failed
        return .json(body)
    }

    /// Apple's eligibility: not expired or refunded, not family shared, not more than twice in 365 days.
    private func extend(_ latest: SimulatedPurchase, by days: Int, now: Date) async -> Result<SimulatedPurchase, ExtensionRequest.Refusal> {
        if latest.familyShared == true {
            return .failure(.init(4_030_007, "Family Sharing subscriptions can't be extended."))
        }
        if latest.subscriptionStatus(at: now) != 1 {
            return .failure(.init(4_030_004, "Forbidden - subscription state ineligible for extension."))
        }
        let lastYear = (latest.extensionDates ?? []).filter { now.timeIntervalSince($0) < 365 * 86_400 }
        if lastYear.count >= Self.maxExtensionsPerYear {
            return .failure(.init(4_030_005, "Forbidden - subscription has reached maximum extension count."))
        }
        let extended = try? await ledger.update(latest.transactionId) { purchase in
            purchase.expiresDate = purchase.expiresDate?.addingTimeInterval(Double(days) * 86_400)
            purchase.extensionDates = lastYear + [now]
        }
        guard let extended else { return .failure(.init(4_040_005, "Original transaction id not found.", status: 404)) }
        return .success(extended)
    }

    /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`
    func setAppAccountToken(_ originalTransactionId: String, body: [String: Any], sandbox: Bool) async -> SimulatorAnswer {
        guard let token = body["appAccountToken"] as? String, UUID(uuidString: token) != nil else {
            return .apiError(4_000_183, "Invalid request. The app account token field must be a valid UUID.", status: 400)
        }
        guard let purchase = await ledger.purchase(transactionId: originalTransactionId), purchase.isSandbox == sandbox else {
            return .apiError(4_040_005, "Original transaction id not found.", status: 404)
        }
        guard purchase.transactionId == purchase.originalTransactionId else {
            return .apiError(4_000_187, "Invalid request. The transaction ID provided is not an original transaction ID.", status: 400)
        }
        guard purchase.familyShared != true else {
            return .apiError(4_000_185, "Invalid request. Family Sharing transactions aren't supported by this endpoint.", status: 400)
        }
        await ledger.setAppAccountToken(token.lowercased(), originalTransactionId: originalTransactionId)
        return SimulatorAnswer(status: 200, body: [])
    }

    /// `POST /inApps/v1/transactions/{transactionId}/finish` (API 1.20): the developer's
    /// server says it delivered the purchase. Apple keeps when; telling it again changes nothing.
    func finishTransaction(_ transactionId: String, sandbox: Bool) async -> SimulatorAnswer {
        guard let purchase = await ledger.purchase(transactionId: transactionId), purchase.isSandbox == sandbox else {
            return .apiError(4_040_010, "Transaction id not found.", status: 404)
        }
        if purchase.finishedAt == nil { _ = try? await ledger.update(transactionId) { $0.finishedAt = Date() } }
        return SimulatorAnswer(status: 200, body: [])
    }

    /// `POST /inApps/v1/notifications/test`: a TEST notification sent now; its token finds it later.
    func requestTestNotification(sandbox: Bool) async -> SimulatorAnswer {
        guard let test = try? appNotification("TEST", sandbox: sandbox) else { return ServerAPIService.internalError }
        let token = "\(test.uuid)_\(test.signedDate.milliseconds)"
        await actions.recordTest(token, uuid: test.uuid)
        await notifications.send(test)
        return .json(["testNotificationToken": token])
    }

    /// `GET /inApps/v1/notifications/test/{testNotificationToken}`
    func testNotificationStatus(_ token: String) async -> SimulatorAnswer {
        guard let uuid = await actions.test(token), let entry = await notifications.entry(uuid: uuid) else {
            return .apiError(4_040_008, "Either the test notification token is expired or the notification and status are not yet available.", status: 404)
        }
        return .json(["signedPayload": entry.notification.signedPayload, "sendAttempts": entry.attempts.map(\.json)])
    }

    func sendLogged(_ notification: SimulatedNotification?) async {
        if let notification { await notifications.send(notification) }
    }
}

/// The body of an extension request, as Apple validates it.
struct ExtensionRequest {
    var days: Int
    var reasonCode: Int
    var requestIdentifier: String
    var productId: String?
    var storefronts: [String]

    struct Refusal: Error {
        var answer: SimulatorAnswer
        init(_ code: Int, _ message: String, status: Int = 403) { answer = .apiError(code, message, status: status) }
    }

    /// The request in `body`, or the refusal naming the first field Apple would name.
    /// `mass` (extend for all subscribers) also needs the product.
    static func parse(_ body: [String: Any], mass: Bool) throws(Refusal) -> ExtensionRequest {
        guard let days = body["extendByDays"] as? Int, (1...AppStoreSimulator.maxExtensionDays).contains(days) else {
            throw Refusal(4_000_009, "Invalid extend by days value.", status: 400)
        }
        guard let reason = body["extendReasonCode"] as? Int, (0...3).contains(reason) else {
            throw Refusal(4_000_010, "Invalid extend reason code.", status: 400)
        }
        guard let id = body["requestIdentifier"] as? String, !id.isEmpty, id.count <= 128 else {
            throw Refusal(4_000_011, "Invalid request identifier.", status: 400)
        }
        let productId = body["productId"] as? String
        if mass, productId?.isEmpty ?? true { throw Refusal(4_000_023, "Invalid product id.", status: 400) }
        return ExtensionRequest(
            days: days, reasonCode: reason, requestIdentifier: id, productId: productId, storefronts: body["storefrontCountryCodes"] as? [String] ?? [])
    }
}

/// What the actions leave behind: consumption answers, extension requests, test tokens.
actor ActionLog {
    struct MassExtension: Sendable {
        var productId: String
        var completeDate: Date?
        var succeeded: Int64?
        var failed: Int64?
    }

    private(set) var consumption: [String: [String: String]] = [:]
    private var massExtensions: [String: MassExtension] = [:]
    private var tests: [String: String] = [:]

    func recordConsumption(_ transactionId: String, body: [String: String]) { consumption[transactionId] = body }

    func startMassExtension(_ id: String, productId: String) -> Bool {
        guard massExtensions[id] == nil else { return false }
        massExtensions[id] = MassExtension(productId: productId)
        return true
    }

    func finishMassExtension(_ id: String, succeeded: Int64, failed: Int64) {
        massExtensions[id]?.completeDate = Date()
        massExtensions[id]?.succeeded = succeeded
        massExtensions[id]?.failed = failed
    }

    func massExtension(_ id: String) -> MassExtension? { massExtensions[id] }

    func recordTest(_ token: String, uuid: String) { tests[token] = uuid }

    func test(_ token: String) -> String? { tests[token] }
}
