import Foundation
import Hummingbird

/// The test controls, for tests and for an operator rehearsing against `iapdesk simulator`.
/// JSON in, JSON out; never subject to faults.
///
/// - `POST /control/purchase` `{"appleId", "productId", "kind", "sandbox"?, "appAccountToken"?, "purchaseDateMs"?}`:
///   kind is `consumable`, `non_consumable`, `non_renewing` or `auto_renewable`. Two game
///   accounts that buy on one `appleId` share it: their devices hold the same receipt.
/// - `POST /control/renew` `{"originalTransactionId"}`, `POST /control/refund` `{"transactionId", "reason"?}`,
///   `POST /control/revoke` `{"transactionId"}`, `POST /control/auto-renew` `{"originalTransactionId", "on"}`:
///   each sends the V2 notification Apple sends for it to the configured URL.
/// - `GET /control/receipt?appleId=…&sandbox=1`: the app receipt that Apple ID's device holds now.
/// - `GET /control/faults`, `PUT /control/faults` `{"profile": "storm"}` (see `FaultProfile.parse`).
/// - `GET /control/root.pem`: the certificate to trust.
struct ControlRoutes: Sendable {
    let simulator: AppStoreSimulator

    func add(to router: Router<BasicRequestContext>) {
        let ledger = simulator.ledger
        router.post("/control/purchase") { request, _ in
            try await handle(request) { json in
                guard let appleId = json["appleId"] as? String, let productId = json["productId"] as? String,
                    let kindName = json["kind"] as? String, let kind = SimulatedPurchase.Kind(name: kindName)
                else {
                    throw ControlError("purchase needs appleId, productId and kind (consumable, non_consumable, non_renewing, auto_renewable)")
                }
                let date = (json["purchaseDateMs"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue / 1000) } ?? Date()
                return Self.describe(
                    await ledger.purchase(
                        appleId: appleId, productId: productId, kind: kind, sandbox: json["sandbox"] as? Bool ?? false,
                        at: date, appAccountToken: json["appAccountToken"] as? String))
            }
        }
        router.post("/control/renew") { request, _ in
            try await handle(request) { json in
                Self.describe(try await simulator.renewAndNotify(originalTransactionId: try Self.field("originalTransactionId", json)))
            }
        }
        router.post("/control/refund") { request, _ in
            try await handle(request) { json in
                try await simulator.refundAndNotify(transactionId: try Self.field("transactionId", json), reason: json["reason"] as? Int ?? 0)
                return ["ok": true]
            }
        }
        router.post("/control/revoke") { request, _ in
            try await handle(request) { json in
                try await simulator.revokeAndNotify(transactionId: try Self.field("transactionId", json))
                return ["ok": true]
            }
        }
        router.post("/control/auto-renew") { request, _ in
            try await handle(request) { json in
                try await simulator.setAutoRenewAndNotify(originalTransactionId: try Self.field("originalTransactionId", json), json["on"] as? Bool ?? false)
                return ["ok": true]
            }
        }
        router.get("/control/receipt") { request, _ in
            try await handle(nil) { _ in
                let query = request.uri.queryParameters
                guard let appleId = query.get("appleId") else { throw ControlError("receipt needs ?appleId=") }
                let sandbox = query.get("sandbox").map { $0 == "1" || $0 == "true" } ?? false
                return ["receipt": try await ledger.receipt(appleId: appleId, sandbox: sandbox)]
            }
        }
        router.get("/control/faults") { _, _ in
            try await handle(nil) { _ in ["profile": await simulator.faults.profile.description] }
        }
        router.put("/control/faults") { request, _ in
            try await handle(request) { json in
                let profile = try FaultProfile.parse(try Self.field("profile", json))
                await simulator.faults.set(profile)
                return ["profile": profile.description]
            }
        }
        router.get("/control/root.pem") { _, _ in
            AppleRoutes.response(SimulatorAnswer(headers: ["Content-Type": "application/x-pem-file"], body: Array(try simulator.authority.rootPEM().utf8)))
        }
    }

    /// Decodes the JSON body (if any), runs `body`, and answers its result or a 400 naming the problem.
    private func handle(_ request: Request?, _ body: ([String: Any]) async throws -> [String: Any]) async throws -> Response {
        var json: [String: Any] = [:]
        if let request {
            let bytes = try await request.body.collect(upTo: 1 << 20)
            guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: bytes)) as? [String: Any] else {
                return AppleRoutes.response(.json(["error": "the body must be a JSON object"], status: 400))
            }
            json = object
        }
        do {
            return AppleRoutes.response(.json(try await body(json)))
        } catch {
            return AppleRoutes.response(.json(["error": "\(error)"], status: 400))
        }
    }

    static func field(_ name: String, _ json: [String: Any]) throws -> String {
        guard let value = json[name] as? String, !value.isEmpty else { throw ControlError("missing \(name)") }
        return value
    }

    static func describe(_ p: SimulatedPurchase) -> [String: Any] {
        var row: [String: Any] = [
            "appleId": p.appleId, "transactionId": p.transactionId, "originalTransactionId": p.originalTransactionId,
            "productId": p.productId, "sandbox": p.isSandbox, "appleOrderId": p.appleOrderId,
            "purchaseDateMs": p.purchaseDate.milliseconds,
        ]
        row["expiresDateMs"] = p.expiresDate?.milliseconds
        row["appAccountToken"] = p.appAccountToken
        return row
    }
}

struct ControlError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension SimulatedPurchase.Kind {
    /// OrderStore's product type names.
    public init?(name: String) {
        switch name {
        case "consumable": self = .consumable
        case "non_consumable": self = .nonConsumable
        case "non_renewing": self = .nonRenewing
        case "auto_renewable": self = .autoRenewable
        default: return nil
        }
    }
}
