import AppStore
import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// Apple's official App Store Server Library (Python, PyPI `app-store-server-library`),
/// which no one here wrote, is the judge of the simulator every other test talks to: its
/// API client calls the simulator's Server API with a token as Apple's client makes it,
/// its `SignedDataVerifier` (strict, offline, with the simulator's root, the app's Apple
/// id and the production environment) verifies every signed payload, `ReceiptUtility`
/// reads a minted receipt, and its models parse every answer (`AppleLibrary/oracle.py`).
@Suite(
    "The simulator judged by Apple's App Store Server Library",
    .needs("Python with app-store-server-library (pip install app-store-server-library)") { AppleLibrary.python != nil }, .takesTurns)
struct AppleLibraryOracleTests {
    @Test(
        "Apple's API client calls every endpoint the simulator serves (filters, actions and their refusals included); its SignedDataVerifier, models and ReceiptUtility accept all it signs, posts and mints"
    )
    func appleLibraryAcceptsTheSimulator() async throws {
        let python = try #require(AppleLibrary.python, "a Python with app-store-server-library")
        let simulator = try AppStoreSimulator(bundleId: "com.example.game", sharedSecret: "oracle-secret")
        let server = try await SimulatorServer.start(simulator)

        // Notifications go to a URL that answers 404, so each has a send attempt to report.
        await simulator.notifications.configure(production: server.baseURL + "/no-receiver", sandbox: nil, retryDelays: [])

        // Life as Apple sees it, in whole seconds: a subscription bought 40 days ago and
        // renewed; a pack bought and refunded, another pack, a non-consumable; two other
        // players on the weekly VIP (the extension for all of them).
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 40 * 86_400).rounded(.down))
        let month = try await simulator.purchaseAndNotify(appleId: "oracle@icloud", productId: "vip_monthly", at: start)
        let renewal = try await simulator.renewAndNotify(originalTransactionId: month.originalTransactionId)
        let pack = try await simulator.purchaseAndNotify(appleId: "oracle@icloud", productId: "coins_60")
        try await simulator.refundAndNotify(transactionId: pack.transactionId)
        let coins = try await simulator.purchaseAndNotify(appleId: "oracle@icloud", productId: "coins_300")
        let noAds = try await simulator.purchaseAndNotify(appleId: "oracle@icloud", productId: "no_ads")
        for player in ["weekly-1@icloud", "weekly-2@icloud"] { try await simulator.purchaseAndNotify(appleId: player, productId: "vip_weekly") }
        let receipt = try await simulator.ledger.receipt(appleId: "oracle@icloud")
        // Apple's 2026: a plan billed monthly with a 12-month commitment, on its third payment
        // and cancelled during the commitment; an offer code on a one-time product; a
        // subscriber who left, eligible for a win-back offer; purchases dated in the past.
        let committed = try await simulator.purchaseAndNotify(appleId: "commit@icloud", productId: "vip_monthly", at: start, commitment: 12)
        _ = try await simulator.renewAndNotify(originalTransactionId: committed.originalTransactionId)
        let third = try await simulator.renewAndNotify(originalTransactionId: committed.originalTransactionId)
        try await simulator.setAutoRenewAndNotify(originalTransactionId: committed.originalTransactionId, false)
        let coded = try await simulator.purchaseAndNotify(appleId: "code@icloud", productId: "no_ads", offer: (3, "SPRING26"))
        let leaver = try await simulator.purchaseAndNotify(appleId: "leaver@icloud", productId: "vip_monthly", at: start)
        try await simulator.expireAndNotify(originalTransactionId: leaver.originalTransactionId, reason: .voluntary)
        let tenDaysAgo = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 10 * 86_400).rounded(.down))
        let pastSubscription = try await simulator.purchaseAndNotify(appleId: "past@icloud", productId: "vip_weekly", at: tenDaysAgo)
        let pastCharge = try await simulator.purchaseAndNotify(appleId: "past@icloud", productId: "coins_300", at: tenDaysAgo)
        let sent = try await Self.everyNotificationByControl(server.baseURL)
        func ms(_ date: Date?) -> Int64 { Int64(((date ?? .distantPast).timeIntervalSince1970 * 1000).rounded()) }

        let setup: [String: Any] = [
            "base": server.baseURL, "p8": simulator.apiKey.p8PEM, "keyId": simulator.apiKey.keyId, "issuerId": simulator.apiKey.issuerId,
            "bundleId": simulator.bundleId, "appAppleId": AppStoreSimulator.appAppleId, "rootPEM": try simulator.authority.rootPEM(),
            "subscription": renewal.transactionId, "original": month.originalTransactionId, "orderId": pack.appleOrderId,
            "refunded": pack.transactionId, "consumable": coins.transactionId, "nonConsumable": noAds.transactionId,
            "originalPurchaseDate": ms(month.purchaseDate), "renewalPurchaseDate": ms(renewal.purchaseDate), "expiresDate": ms(renewal.expiresDate),
            "appTransactionId": month.appTransactionId, "massProduct": "vip_weekly", "massSubscribers": 3,  // weekly-1, weekly-2 and fan, back after it ended
            "receipt": receipt, "expectedNotifications": sent,
            "receiptTransactions": [month, renewal, pack, coins, noAds].map(\.transactionId),
            "commitment": third.transactionId, "commitmentEnd": ms(third.commitmentEnd), "offerCoded": coded.transactionId,
            "winBack": leaver.originalTransactionId, "winBackOffers": ["vip_welcome_back"],
            "pastSubscription": pastSubscription.transactionId, "pastCharge": pastCharge.transactionId, "pastDate": ms(tenDaysAgo),
            "productionHost": ServerAPICredentials.appleProductionURL, "sandboxHost": ServerAPICredentials.appleSandboxURL,
        ]
        let checks = try await AppleLibrary.run(python, script: AppleLibrary.script, input: try JSONSerialization.data(withJSONObject: setup))
        await simulator.notifications.stop()
        await server.stop()
        #expect(checks.count == 21, "every check reported: \(checks)")
        for check in checks {
            #expect(check.ok, "\(check.name): \(check.detail)")
        }
        let finished = await simulator.ledger.purchase(transactionId: coins.transactionId)?.finishedAt
        #expect(finished != nil, "Apple's client told the simulator the purchase is finished")
    }
}

extension AppleLibraryOracleTests {
    /// Every notification Apple sends, made to happen through the simulator's HTTP
    /// controls on players of their own; returns the TYPE/SUBTYPE each sent.
    static func everyNotificationByControl(_ base: String) async throws -> [String] {
        func control(_ path: String, _ body: [String: Any]) async throws -> [String: Any] {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let answer = try #require(await LoopbackHTTP.call(.POST, base + "/control/" + path, json: json), "no answer from /control/\(path)")
            #expect(answer.status == 200, "/control/\(path): \(answer.body)")
            return answer.body
        }
        func buy(_ appleId: String, _ product: String, daysAgo: Double = 0) async throws -> (tid: String, otid: String) {
            let bought = try await control(
                "purchase", ["appleId": appleId, "productId": product, "purchaseDateMs": (Date().timeIntervalSince1970 - daysAgo * 86_400) * 1000])
            return (try #require(bought["transactionId"] as? String), try #require(bought["originalTransactionId"] as? String))
        }
        // Billing trouble: retry, recovery; then a grace period that ends; then expiry by retry.
        let billing = try await buy("billing@icloud", "vip_monthly", daysAgo: 29.9)
        _ = try await control("fail-renewal", ["originalTransactionId": billing.otid])
        _ = try await control("renew", ["originalTransactionId": billing.otid])
        _ = try await control("fail-renewal", ["originalTransactionId": billing.otid, "graceDays": 16])
        _ = try await control("end-grace-period", ["originalTransactionId": billing.otid])
        _ = try await control("expire", ["originalTransactionId": billing.otid])
        // Moves in the group: upgrade to yearly (at once), downgrade to weekly (waits), and back.
        let mover = try await buy("mover@icloud", "vip_monthly")
        let upgraded = try await control("change-product", ["originalTransactionId": mover.otid, "productId": "vip_yearly"])
        #expect(upgraded["productId"] as? String == "vip_yearly" && upgraded["transactionId"] as? String != mover.tid)
        _ = try await control("change-product", ["originalTransactionId": mover.otid, "productId": "vip_weekly"])
        _ = try await control("change-product", ["originalTransactionId": mover.otid, "productId": "vip_yearly"])
        // Renewal preferences, price increase, an offer, and the ends a subscription can have.
        let fan = try await buy("fan@icloud", "vip_weekly")
        _ = try await control("auto-renew", ["originalTransactionId": fan.otid, "on": false])
        _ = try await control("auto-renew", ["originalTransactionId": fan.otid, "on": true])
        _ = try await control("price-increase", ["originalTransactionId": fan.otid, "accepted": false])
        _ = try await control("price-increase", ["originalTransactionId": fan.otid, "accepted": true])
        _ = try await control("offer", ["originalTransactionId": fan.otid, "offerIdentifier": "winback_50"])
        _ = try await control("expire", ["originalTransactionId": fan.otid, "reason": "PRODUCT_NOT_FOR_SALE"])
        _ = try await buy("fan@icloud", "vip_weekly")  // back after it ended: RESUBSCRIBE
        let unsure = try await buy("unsure@icloud", "vip_weekly")
        _ = try await control("price-increase", ["originalTransactionId": unsure.otid, "accepted": false])
        _ = try await control("expire", ["originalTransactionId": unsure.otid])
        _ = try await control("expire", ["originalTransactionId": try await buy("quitter@icloud", "vip_weekly").otid, "reason": "VOLUNTARY"])
        // Refunds: asked for, declined; granted in part, reversed; Family Sharing given and taken back.
        let gems = try await buy("refunds@icloud", "coins_980")
        _ = try await control("refund-request", ["transactionId": gems.tid, "reason": "UNINTENDED_PURCHASE"])
        _ = try await control("refund-decline", ["transactionId": gems.tid])
        _ = try await control("refund", ["transactionId": gems.tid, "percentage": 50_000])
        _ = try await control("refund-reverse", ["transactionId": gems.tid])
        let shared = try await control("family-share", ["transactionId": try await buy("parent@icloud", "no_ads").tid, "member": "child@icloud"])
        _ = try await control("revoke", ["transactionId": try #require(shared["transactionId"] as? String)])
        _ = try await control("rescind-consent", ["appleId": "child@icloud"])
        // Payments outside the App Store: tokens Apple reports, their app named inside the token.
        _ = try await control("external-purchase-token", ["subtype": "UNREPORTED"])
        _ = try await control("external-purchase-token", ["subtype": "CREATED", "tokenType": "SERVICES"])
        // What a control must refuse: a product the catalogue lacks, a kind that contradicts it.
        let unknown = await LoopbackHTTP.call(.POST, base + "/control/purchase", json: #"{"appleId":"x","productId":"gems_100"}"#)
        #expect(unknown?.status == 400 && (unknown?.body["error"] as? String)?.contains("gems_100") == true)
        let wrongKind = await LoopbackHTTP.call(.POST, base + "/control/purchase", json: #"{"appleId":"x","productId":"coins_60","kind":"auto_renewable"}"#)
        #expect(wrongKind?.status == 400)
        return [
            "SUBSCRIBED/INITIAL_BUY", "SUBSCRIBED/RESUBSCRIBE", "ONE_TIME_CHARGE", "DID_RENEW", "DID_RENEW/BILLING_RECOVERY", "DID_FAIL_TO_RENEW",
            "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED", "EXPIRED/VOLUNTARY", "EXPIRED/BILLING_RETRY", "EXPIRED/PRICE_INCREASE",
            "EXPIRED/PRODUCT_NOT_FOR_SALE", "DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "DID_CHANGE_RENEWAL_PREF",
            "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED", "PRICE_INCREASE/PENDING",
            "PRICE_INCREASE/ACCEPTED", "OFFER_REDEEMED", "CONSUMPTION_REQUEST", "REFUND_DECLINED", "REFUND", "REFUND_REVERSED", "REVOKE",
            "RESCIND_CONSENT", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION/SUMMARY", "TEST", "EXTERNAL_PURCHASE_TOKEN/UNREPORTED",
            "EXTERNAL_PURCHASE_TOKEN/CREATED",
        ]
    }
}

/// Finding and running the Python that has Apple's library.
enum AppleLibrary {
    struct Check: Sendable {
        var name: String
        var ok: Bool
        var detail: String
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("AppleLibrary/oracle.py").path

    /// `IAPDESK_PYTHON`, the Python of the venv that holds schemathesis (as `.ci/run` makes
    /// it), or `python3`: the first that can import the library.
    static let python: String? = Machine.python(importing: "appstoreserverlibrary")

    /// Runs the script with `input` on stdin and reads its checks.
    static func run(_ python: String, script: String, input: Data) async throws -> [Check] {
        let output = try await ChildProcess.run(python, [script], input: input, timeout: .seconds(120)).output
        let lines = output.split(separator: "\n")
        let checks = lines.compactMap { line -> Check? in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                let name = object["check"] as? String, let ok = object["ok"] as? Bool
            else { return nil }
            return Check(name: name, ok: ok, detail: object["detail"] as? String ?? "")
        }
        guard !checks.isEmpty else { throw Machine.Missing(what: "checks from \(script): \(output.prefix(2000))") }
        return checks
    }
}
