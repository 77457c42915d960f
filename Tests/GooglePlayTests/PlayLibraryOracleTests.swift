import Foundation
import GooglePlaySimulator
import TestSupport
import Testing

/// Google's own client libraries (google-api-python-client with its bundled androidpublisher
/// v3 discovery document, and google-auth), which no one here wrote, judge the Google Play
/// simulator every other test talks to: the service account's token, every endpoint, every
/// answer's shape, every error, and the push tokens of real-time developer notifications
/// (`GoogleLibrary/oracle.py`).
@Suite(
    "The Google Play simulator judged by Google's client libraries",
    .needs("Python with google-api-python-client and google-auth (pip install google-api-python-client google-auth)") { GoogleLibrary.python != nil },
    .takesTurns)
struct PlayLibraryOracleTests {
    static let packageName = "com.iapdesk.demo"
    static let audience = "https://iapdesk.test/google/notifications"

    @Test(
        "google-auth's service account signs in at the simulator; the API client calls every endpoint it serves and reads Google's errors; every answer matches the discovery document; google-auth accepts its push tokens and refuses altered ones"
    )
    func googleLibrariesAcceptTheSimulator() async throws {
        let python = try #require(GoogleLibrary.python, "a Python with google-api-python-client")
        let sim = try GooglePlaySimulator(packageNames: [Self.packageName])
        let server = try await PlaySimulatorServer.start(sim)
        // A push endpoint that answers 404: every push is attempted (and signed), none acknowledged.
        await sim.notifications.configure(url: server.baseURL + "/no-receiver", audience: Self.audience, retryDelays: [])

        let consumable = try await sim.purchaseAndNotify(productId: "coins_300", account: "acct-oracle", quantity: 3)
        let nonConsumable = try await sim.purchaseAndNotify(productId: "no_ads", account: "acct-oracle")
        let pending = try await sim.purchaseAndNotify(productId: "coins_60", pending: true)
        let abandoned = try await sim.purchaseAndNotify(productId: "coins_60", pending: true)
        try await sim.settlePendingAndNotify(abandoned.token, paid: false)
        let test = try await sim.purchaseAndNotify(productId: "coins_60", test: true)
        let month = try await sim.purchaseAndNotify(productId: "vip_monthly", account: "acct-oracle")
        try await sim.renewAndNotify(month.token)
        try await sim.renewAndNotify(month.token)
        // A subscription's life, every notification Google pushes for it.
        let troubled = try await sim.purchaseAndNotify(productId: "vip_monthly", account: "acct-troubled")
        try await sim.cancelAndNotify(troubled.token)
        try await sim.restartAndNotify(troubled.token)
        for event in [GooglePlaySimulator.SubscriptionEvent.inGracePeriod, .onHold, .recovered, .paused, .expired] {
            try await sim.subscriptionEventAndNotify(troubled.token, event)
        }
        let pendingSubscription = try await sim.purchaseAndNotify(productId: "vip_monthly", pending: true)
        try await sim.settlePendingAndNotify(pendingSubscription.token, paid: false)
        let other = try await sim.purchaseAndNotify(productId: "vip_monthly", account: "acct-upgrader")
        let upgraded = try await sim.changePlanAndNotify(other.token, to: "vip_yearly")
        let refunded = try await sim.purchaseAndNotify(productId: "coins_980")
        try await sim.voidAndNotify(refunded.token, reason: 1)
        let partly = try await sim.purchaseAndNotify(productId: "coins_60", quantity: 5)
        try await sim.voidAndNotify(partly.token, quantity: 2)
        let revokedSubscription = try await sim.purchaseAndNotify(productId: "vip_monthly", account: "acct-revoked")
        try await sim.voidAndNotify(revokedSubscription.token, reason: 7)
        let toRefund = try await sim.purchaseAndNotify(productId: "coins_300")
        await sim.testNotification()

        let entries = await sim.notifications.entries
        let keyFile = sim.keys.serviceAccountFile(tokenURI: server.tokenURI)
        let setup: [String: Any] = [
            "base": server.baseURL, "packageName": Self.packageName, "serviceAccount": keyFile, "audience": Self.audience,
            "pushAccount": sim.keys.pushServiceAccountEmail,
            "consumable": ["token": consumable.token, "productId": "coins_300", "account": "acct-oracle", "quantity": 3] as [String: Any],
            "nonConsumable": ["token": nonConsumable.token, "productId": "no_ads"], "pending": pending.token, "test": test.token,
            "subscription": month.token, "subscription2": other.token, "upgraded": upgraded.token, "voided": refunded.token,
            "voidedOrder": try #require(refunded.orderId), "partial": partly.token, "refundOrder": try #require(toRefund.orderId),
            "pushToken": try #require(entries.first?.tokens.first), "pushBodies": entries.map(\.message.body),
            "expectedKinds": [
                "oneTime/1", "oneTime/2", "subscription/1", "subscription/2", "subscription/3", "subscription/4", "subscription/5", "subscription/6",
                "subscription/7", "subscription/10", "subscription/12", "subscription/13", "subscription/20", "voided/2/1", "voided/2/2", "voided/1/1",
                "test",
            ],
        ]
        let checks = try await GoogleLibrary.run(python, input: try JSONSerialization.data(withJSONObject: setup))
        await server.stop()
        #expect(checks.count == 12, "every check reported: \(checks)")
        for check in checks {
            #expect(check.ok, "\(check.name): \(check.detail)")
        }
    }
}

/// Finding and running the Python that has Google's libraries.
enum GoogleLibrary {
    struct Check: Sendable {
        var name: String
        var ok: Bool
        var detail: String
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GoogleLibrary/oracle.py").path

    /// `IAPDESK_PYTHON`, the Python of the venv that holds schemathesis (as `.ci/run` makes
    /// it), or `python3`: the first that can import google-api-python-client and google-auth.
    static let python: String? = Machine.python(importing: "googleapiclient, google.oauth2.id_token")

    static func run(_ python: String, input: Data) async throws -> [Check] {
        let output = try await ChildProcess.run(python, [script], input: input, timeout: .seconds(300)).output
        let checks = output.split(separator: "\n").compactMap { line -> Check? in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                let name = object["check"] as? String, let ok = object["ok"] as? Bool
            else { return nil }
            return Check(name: name, ok: ok, detail: object["detail"] as? String ?? "")
        }
        guard !checks.isEmpty else { throw Machine.Missing(what: "checks from \(script): \(output.prefix(2000))") }
        return checks
    }
}
