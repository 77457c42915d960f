import Foundation
import Hummingbird
import SimulatorFaults

/// The test controls, for tests and for an operator rehearsing against the Play simulator:
/// each makes something happen at Google Play and pushes the notification Google sends for
/// it. JSON in, JSON out; never subject to faults. `GET /control` lists them.
struct PlayControlRoutes: Sendable {
    let simulator: GooglePlaySimulator

    struct Control: Sendable {
        var path: String
        var body: String
        var run: @Sendable (GooglePlaySimulator, PlayFields) async throws -> [String: Any]
    }

    static let controls: [Control] = [
        Control(
            path: "purchase",
            body: #"{"productId", "packageName"?, "account"?, "profile"?, "quantity"?, "pending"?, "test"?, "purchaseTimeMs"?}"#
        ) { sim, f in
            describe(
                try await sim.purchaseAndNotify(
                    productId: try f.string("productId"), packageName: f.optional("packageName"), account: f.optional("account"),
                    profile: f.optional("profile"), quantity: f.int("quantity") ?? 1, pending: f.bool("pending") ?? false, test: f.bool("test") ?? false,
                    at: f.date("purchaseTimeMs") ?? Date()))
        },
        Control(path: "settle-pending", body: #"{"token", "paid"}"#) { sim, f in
            describe(try await sim.settlePendingAndNotify(try f.string("token"), paid: f.bool("paid") ?? true))
        },
        Control(path: "renew", body: #"{"token"}"#) { sim, f in describe(try await sim.renewAndNotify(try f.string("token"))) },
        Control(path: "cancel", body: #"{"token"}"#) { sim, f in describe(try await sim.cancelAndNotify(try f.string("token"))) },
        Control(path: "restart", body: #"{"token"}"#) { sim, f in describe(try await sim.restartAndNotify(try f.string("token"))) },
        Control(path: "grace", body: #"{"token"}"#) { sim, f in describe(try await sim.subscriptionEventAndNotify(try f.string("token"), .inGracePeriod)) },
        Control(path: "hold", body: #"{"token"}"#) { sim, f in describe(try await sim.subscriptionEventAndNotify(try f.string("token"), .onHold)) },
        Control(path: "recover", body: #"{"token"}"#) { sim, f in describe(try await sim.subscriptionEventAndNotify(try f.string("token"), .recovered)) },
        Control(path: "pause", body: #"{"token", "days"?}"#) { sim, f in
            let until = Date().addingTimeInterval(Double(f.int("days") ?? 30) * 86_400)
            return describe(try await sim.subscriptionEventAndNotify(try f.string("token"), .paused, pausedUntil: until))
        },
        Control(path: "expire", body: #"{"token"}"#) { sim, f in describe(try await sim.subscriptionEventAndNotify(try f.string("token"), .expired)) },
        Control(path: "change-plan", body: #"{"token", "productId"}"#) { sim, f in
            describe(try await sim.changePlanAndNotify(try f.string("token"), to: try f.string("productId")))
        },
        Control(path: "void", body: #"{"token", "quantity"? (a partial refund of a multi-quantity purchase), "reason"? (0-8), "source"? (0-2)}"#) { sim, f in
            let record = try await sim.voidAndNotify(
                try f.string("token"), quantity: f.int("quantity"), source: f.int("source") ?? 0, reason: f.int("reason") ?? 1)
            var answer: [String: Any] = ["orderId": record.orderId, "token": record.token]
            answer["quantity"] = record.quantity
            return answer
        },
        Control(path: "refund-unacknowledged", body: #"{}"# + " (Google's three-day rule, applied now)") { sim, _ in
            ["voided": await sim.refundUnacknowledgedAndNotify().map(\.token)]
        },
        Control(path: "test-notification", body: #"{}"#) { sim, _ in
            await sim.testNotification()
            return ["ok": true]
        },
    ]

    func add(to router: Router<BasicRequestContext>) {
        for control in Self.controls {
            router.post("/control/\(control.path)") { [simulator] request, _ in
                try await handle(request) { json in try await control.run(simulator, PlayFields(json: json)) }
            }
        }
        router.get("/control") { _, _ in
            try await handle(nil) { _ in ["controls": Self.controls.map { "POST /control/\($0.path) \($0.body)" }] }
        }
        router.get("/control/purchase") { request, _ in
            try await handle(nil) { _ in
                guard let token = request.uri.queryParameters.get("token"), let purchase = await simulator.ledger.purchase(token: token) else {
                    throw PlayControlError("no purchase with that ?token=")
                }
                return Self.describe(purchase)
            }
        }
        router.get("/control/faults") { _, _ in
            try await handle(nil) { _ in ["profile": await simulator.faults.profile.description] }
        }
        router.put("/control/faults") { request, _ in
            try await handle(request) { json in
                let profile = try FaultProfile.parse(try PlayFields(json: json).string("profile"))
                await simulator.faults.set(profile)
                return ["profile": profile.description]
            }
        }
    }

    static func describe(_ p: PlayPurchase) -> [String: Any] {
        var row: [String: Any] = [
            "token": p.token, "packageName": p.packageName, "productId": p.productId, "kind": p.kind.rawValue, "state": p.state.rawValue,
            "quantity": p.quantity, "acknowledged": p.acknowledged, "test": p.isTest, "purchaseTimeMs": Int64(p.purchaseTime.timeIntervalSince1970 * 1000),
        ]
        row["orderId"] = p.orderId
        row["latestOrderId"] = p.latestOrderId
        row["subscriptionState"] = p.subscriptionState?.rawValue
        row["expiryTimeMs"] = p.expiryTime.map { Int64($0.timeIntervalSince1970 * 1000) }
        row["linkedPurchaseToken"] = p.linkedPurchaseToken
        row["account"] = p.obfuscatedAccountId
        return row
    }

    private func handle(_ request: Request?, _ body: ([String: Any]) async throws -> [String: Any]) async throws -> Response {
        var json: [String: Any] = [:]
        if let request {
            let bytes = try await request.body.collect(upTo: 1 << 20)
            if bytes.readableBytes > 0 {
                guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: bytes)) as? [String: Any] else {
                    return PlayAnswer.json((400, ["error": "the body must be a JSON object"]))
                }
                json = object
            }
        }
        do {
            return PlayAnswer.json((200, try await body(json)))
        } catch {
            return PlayAnswer.json((400, ["error": "\(error)"]))
        }
    }
}

struct PlayControlError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A control's JSON body, read field by field with the problem named.
struct PlayFields {
    let json: [String: Any]

    func string(_ name: String) throws -> String {
        guard let value = json[name] as? String, !value.isEmpty else { throw PlayControlError("missing \(name)") }
        return value
    }
    func optional(_ name: String) -> String? { json[name] as? String }
    func bool(_ name: String) -> Bool? { json[name] as? Bool }
    func int(_ name: String) -> Int? { (json[name] as? NSNumber)?.intValue }
    func date(_ name: String) -> Date? { (json[name] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue / 1000) } }
}
