import Foundation
import Hummingbird

/// The test controls, for tests and for an operator rehearsing against `iapdesk simulator`:
/// each makes something happen at Apple and sends the notification Apple sends for it to
/// the configured URL. JSON in, JSON out; never subject to faults. `GET /control` lists them.
struct ControlRoutes: Sendable {
    let simulator: AppStoreSimulator

    /// One control: its path, what its body holds, and what it does.
    struct Control: Sendable {
        var path: String
        var body: String
        var run: @Sendable (AppStoreSimulator, Fields) async throws -> [String: Any]
    }

    static let controls: [Control] = [
        Control(
            path: "purchase",
            body:
                #"{"appleId", "productId", "sandbox"?, "appAccountToken"?, "quantity"?, "invoiceOf"?, "purchaseDateMs"?, "offerCode"?, "offerType"?, "offerIdentifier"?, "commitment"? (payments, e.g. 12)}"#
        ) { sim, f in
            var invoice: String?
            if let tid = f.optional("invoiceOf") {
                guard let other = await sim.ledger.purchase(transactionId: tid) else { throw ControlError("no transaction \(tid) to share an invoice with") }
                invoice = other.appleOrderId
            }
            if let kind = f.optional("kind"), let product = await sim.ledger.catalogue[try f.string("productId")],
                SimulatedPurchase.Kind(name: kind) != product.kind
            {
                throw ControlError("\(product.productId) is \(product.kind.name) in the catalogue, not \(kind)")
            }
            // An offer code (type 3) redeemed with the purchase, one-time products too; or any offer by type.
            let offer: (type: Int, identifier: String?)? =
                if let code = f.optional("offerCode") { (3, code) } else { f.int("offerType").map { ($0, f.optional("offerIdentifier")) } }
            if let commitment = f.int("commitment"), !(2...36).contains(commitment) {
                throw ControlError("commitment is a number of monthly payments, 2 to 36")
            }
            let purchase = try await sim.purchaseAndNotify(
                appleId: try f.string("appleId"), productId: try f.string("productId"), sandbox: f.bool("sandbox") ?? false,
                at: f.date("purchaseDateMs") ?? Date(), appAccountToken: f.optional("appAccountToken"), quantity: f.int("quantity") ?? 1,
                invoice: invoice, offer: offer, commitment: f.int("commitment"))
            var answer = describe(purchase)
            // What a StoreKit 2 app hands its game server (Transaction.jwsRepresentation), so a
            // rehearsal can submit it as `signed_transaction` without minting tokens by hand.
            answer["signedTransaction"] = try await sim.signedTransaction(purchase)
            return answer
        },
        Control(path: "renew", body: #"{"originalTransactionId"}"#) { sim, f in
            describe(try await sim.renewAndNotify(originalTransactionId: try f.string("originalTransactionId")))
        },
        Control(path: "fail-renewal", body: #"{"originalTransactionId", "graceDays"?}"#) { sim, f in
            try await sim.failRenewalAndNotify(originalTransactionId: try f.string("originalTransactionId"), graceDays: f.int("graceDays"))
            return ["ok": true]
        },
        Control(path: "end-grace-period", body: #"{"originalTransactionId"}"#) { sim, f in
            try await sim.endGracePeriodAndNotify(originalTransactionId: try f.string("originalTransactionId"))
            return ["ok": true]
        },
        Control(path: "expire", body: #"{"originalTransactionId", "reason"?: VOLUNTARY|BILLING_RETRY|PRICE_INCREASE|PRODUCT_NOT_FOR_SALE}"#) { sim, f in
            let reason = try f.optional("reason").map { name in
                guard let reason = AppStoreSimulator.ExpiryReason(rawValue: name) else { throw ControlError("no expiry reason \(name)") }
                return reason
            }
            try await sim.expireAndNotify(originalTransactionId: try f.string("originalTransactionId"), reason: reason)
            return ["ok": true]
        },
        Control(path: "change-product", body: #"{"originalTransactionId", "productId"}"#) { sim, f in
            describe(try await sim.changeProductAndNotify(originalTransactionId: try f.string("originalTransactionId"), to: try f.string("productId")))
        },
        Control(path: "auto-renew", body: #"{"originalTransactionId", "on"}"#) { sim, f in
            try await sim.setAutoRenewAndNotify(originalTransactionId: try f.string("originalTransactionId"), f.bool("on") ?? false)
            return ["ok": true]
        },
        Control(path: "refund", body: #"{"transactionId", "reason"?, "percentage"? (thousandths of a percent)}"#) { sim, f in
            try await sim.refundAndNotify(transactionId: try f.string("transactionId"), reason: f.int("reason") ?? 0, percentage: f.int("percentage"))
            return ["ok": true]
        },
        Control(path: "refund-request", body: #"{"transactionId", "reason"?}"#) { sim, f in
            try await sim.requestRefundAndNotify(transactionId: try f.string("transactionId"), reason: f.optional("reason") ?? "UNSATISFIED_WITH_PURCHASE")
            return ["ok": true]
        },
        Control(path: "refund-decline", body: #"{"transactionId"}"#) { sim, f in
            try await sim.declineRefundAndNotify(transactionId: try f.string("transactionId"))
            return ["ok": true]
        },
        Control(path: "refund-reverse", body: #"{"transactionId"}"#) { sim, f in
            try await sim.reverseRefundAndNotify(transactionId: try f.string("transactionId"))
            return ["ok": true]
        },
        Control(path: "revoke", body: #"{"transactionId"}"#) { sim, f in
            try await sim.revokeAndNotify(transactionId: try f.string("transactionId"))
            return ["ok": true]
        },
        Control(path: "family-share", body: #"{"transactionId", "member"}"#) { sim, f in
            describe(try await sim.shareWithFamilyAndNotify(transactionId: try f.string("transactionId"), member: try f.string("member")))
        },
        Control(path: "price-increase", body: #"{"originalTransactionId", "accepted"}"#) { sim, f in
            try await sim.priceIncreaseAndNotify(originalTransactionId: try f.string("originalTransactionId"), accepted: f.bool("accepted") ?? false)
            return ["ok": true]
        },
        Control(path: "offer", body: #"{"originalTransactionId", "offerIdentifier", "offerType"?}"#) { sim, f in
            try await sim.redeemOfferAndNotify(
                originalTransactionId: try f.string("originalTransactionId"), offerIdentifier: try f.string("offerIdentifier"),
                offerType: f.int("offerType") ?? 2)
            return ["ok": true]
        },
        Control(
            path: "external-purchase-token", body: #"{"subtype"?: CREATED|ACTIVE_TOKEN_REMINDER|UNREPORTED, "tokenType"?: ACQUISITION|SERVICES, "sandbox"?}"#
        ) {
            sim, f in
            let subtype = f.optional("subtype") ?? "CREATED"
            guard ["CREATED", "ACTIVE_TOKEN_REMINDER", "UNREPORTED"].contains(subtype) else {
                throw ControlError("subtype is CREATED, ACTIVE_TOKEN_REMINDER or UNREPORTED")
            }
            let tokenType = f.optional("tokenType") ?? "ACQUISITION"
            guard ["ACQUISITION", "SERVICES"].contains(tokenType) else { throw ControlError("tokenType is ACQUISITION or SERVICES") }
            let id = try await sim.externalPurchaseTokenAndNotify(subtype: subtype, tokenType: tokenType, sandbox: f.bool("sandbox") ?? false)
            return ["externalPurchaseId": id]
        },
        Control(path: "rescind-consent", body: #"{"appleId", "sandbox"?}"#) { sim, f in
            try await sim.rescindConsentAndNotify(appleId: try f.string("appleId"), sandbox: f.bool("sandbox") ?? false)
            return ["ok": true]
        },
        Control(path: "product", body: #"{"productId", "kind", "priceMilli", "currency"?, "group"?, "level"?, "period"?: P1W|P1M|P2M|P3M|P6M|P1Y}"#) { sim, f in
            guard let kind = SimulatedPurchase.Kind(name: try f.string("kind")) else {
                throw ControlError("kind is consumable, non_consumable, non_renewing or auto_renewable")
            }
            let period = try f.optional("period").map { name in
                guard let period = SimulatedProduct.Period(rawValue: name) else { throw ControlError("no period \(name)") }
                return period
            }
            guard let price = f.int("priceMilli"), price >= 0 else { throw ControlError("missing priceMilli") }
            let product = SimulatedProduct(
                try f.string("productId"), kind: kind, priceMilli: Int64(price), currency: f.optional("currency") ?? "CNY", group: f.optional("group"),
                level: f.int("level"), period: period)
            await sim.ledger.sell(product)
            return ["ok": true]
        },
    ]

    func add(to router: Router<BasicRequestContext>) {
        let ledger = simulator.ledger
        for control in Self.controls {
            router.post("/control/\(control.path)") { [simulator] request, _ in
                try await handle(request) { json in try await control.run(simulator, Fields(json: json)) }
            }
        }
        router.get("/control") { _, _ in
            try await handle(nil) { _ in ["controls": Self.controls.map { "POST /control/\($0.path) \($0.body)" }] }
        }
        router.get("/control/products") { _, _ in
            try await handle(nil) { _ in
                let products = await ledger.catalogue.products.values.sorted { $0.productId < $1.productId }
                return [
                    "products": products.map { p in
                        var row: [String: Any] = ["productId": p.productId, "kind": p.kind.name, "priceMilli": p.priceMilli, "currency": p.currency]
                        row["group"] = p.group
                        row["level"] = p.level
                        row["period"] = p.period?.rawValue
                        return row
                    }
                ]
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
                let profile = try FaultProfile.parse(try Fields(json: json).string("profile"))
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

    static func describe(_ p: SimulatedPurchase) -> [String: Any] {
        var row: [String: Any] = [
            "appleId": p.appleId, "transactionId": p.transactionId, "originalTransactionId": p.originalTransactionId,
            "productId": p.productId, "sandbox": p.isSandbox, "appleOrderId": p.appleOrderId, "appTransactionId": p.appTransactionId,
            "purchaseDateMs": p.purchaseDate.milliseconds,
        ]
        row["expiresDateMs"] = p.expiresDate?.milliseconds
        row["appAccountToken"] = p.appAccountToken
        row["offerType"] = p.offerType
        row["offerIdentifier"] = p.offerIdentifier
        row["commitmentPayment"] = p.commitmentPayment
        row["commitmentPayments"] = p.commitmentPayments
        return row
    }
}

/// A control's JSON body, read field by field with the problem named.
struct Fields {
    let json: [String: Any]

    func string(_ name: String) throws -> String {
        guard let value = json[name] as? String, !value.isEmpty else { throw ControlError("missing \(name)") }
        return value
    }
    func optional(_ name: String) -> String? { json[name] as? String }
    func bool(_ name: String) -> Bool? { json[name] as? Bool }
    func int(_ name: String) -> Int? { (json[name] as? NSNumber)?.intValue }
    func date(_ name: String) -> Date? { (json[name] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue / 1000) } }
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

    public var name: String {
        switch self {
        case .consumable: "consumable"
        case .nonConsumable: "non_consumable"
        case .nonRenewing: "non_renewing"
        case .autoRenewable: "auto_renewable"
        }
    }
}
