import Foundation
import HTTPTypes
import Hummingbird
import WebTokens

/// The androidpublisher v3 endpoints iapdesk and the desk use, under Google's paths
/// (`/androidpublisher/v3/applications/{packageName}/…`), each answer passed through the
/// faults in force. A call needs a bearer token: one `/token` issued, or a JWT the service
/// account signed itself (google-auth's `always_use_jwt_access`).
struct PublisherRoutes: Sendable {
    let simulator: GooglePlaySimulator
    static let prefix = "/androidpublisher/v3/applications/"

    func add(to router: Router<BasicRequestContext>) {
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/androidpublisher/v3/applications/**", method: method) { request, _ in
                let body = try await request.body.collect(upTo: 1 << 16)
                return await PlayAnswer.faulted(simulator) {
                    guard await authorized(request.headers[.authorization]) else {
                        return PublisherAnswers.error(401, "unauthorized", "Request is missing required authentication credential.")
                    }
                    let query = Dictionary(grouping: request.uri.queryParameters.map { (String($0.key), String($0.value)) }, by: \.0).mapValues { $0.map(\.1) }
                    return await route(method, path: request.uri.path, query: query, body: Data(buffer: body))
                }
            }
        }
    }

    /// An access token this simulator issued, or a JWT signed by the service account.
    private func authorized(_ header: String?) async -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        let bearer = String(header.dropFirst("Bearer ".count))
        if await simulator.tokens.isValid(bearer) { return true }
        struct Claims: Decodable {
            var iss: String?
            var exp: Int64?
        }
        guard let token = try? WebToken(compact: bearer), token.isSigned(by: simulator.keys.serviceAccountPublicKey),
            let claims = try? token.claims(as: Claims.self), claims.iss == simulator.keys.serviceAccountEmail,
            let exp = claims.exp, Double(exp) > Date().timeIntervalSince1970
        else { return false }
        return true
    }

    /// Dispatches one call by its path (`…/tokens/{token}:acknowledge` and the like).
    private func route(_ method: HTTPRequest.Method, path: String, query: [String: [String]], body: Data) async -> (Int, [String: Any]) {
        let rest = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).removingPercentEncoding ?? String($0)
        }
        guard let packageName = rest.first, rest.count >= 2 else { return PublisherAnswers.error(404, "notFound", "No such method.") }
        guard simulator.packageNames.contains(packageName) else {
            return PublisherAnswers.error(403, "permissionDenied", "The current user has insufficient permissions to perform the requested operation.")
        }
        let ledger = simulator.ledger
        let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        let (resource, action) = Self.split(rest.last ?? "")
        let parts = Array(rest.dropLast()) + [resource]
        do {
            switch (method, parts.dropFirst().joined(separator: "/"), action) {
            case (.get, let p, nil) where p.hasPrefix("purchases/products/") && parts.count == 6 && parts[4] == "tokens":
                let purchase = try await owned(parts[5], in: packageName)
                guard purchase.kind != .subscription else { return PublisherAnswers.error(400, "invalid", "Invalid Value") }
                guard purchase.productId == parts[3] else {
                    return PublisherAnswers.error(400, "purchaseTokenDoesNotMatchProductId", "The purchase token does not match the product ID.")
                }
                return (200, PublisherAnswers.productPurchase(purchase))
            case (.post, let p, let act?) where p.hasPrefix("purchases/products/") && parts.count == 6 && (act == "acknowledge" || act == "consume"):
                let purchase = try await owned(parts[5], in: packageName)
                guard purchase.productId == parts[3], purchase.kind != .subscription else {
                    return PublisherAnswers.error(400, "purchaseTokenDoesNotMatchProductId", "The purchase token does not match the product ID.")
                }
                _ = act == "acknowledge" ? try await ledger.acknowledge(purchase.token) : try await ledger.consume(purchase.token)
                return (200, [:])
            case (.get, let p, nil) where p.hasPrefix("purchases/productsv2/tokens/") && parts.count == 5:
                let purchase = try await owned(parts[4], in: packageName)
                guard purchase.kind != .subscription else { return PublisherAnswers.error(400, "invalid", "Invalid Value") }
                return (200, PublisherAnswers.productPurchaseV2(purchase))
            case (.get, let p, nil) where p.hasPrefix("purchases/subscriptionsv2/tokens/") && parts.count == 5:
                let purchase = try await subscription(parts[4], in: packageName)
                if let end = purchase.expiryTime, Date().timeIntervalSince(end) > 60 * 86_400 {
                    return PublisherAnswers.error(
                        410, "purchaseTokenNoLongerValid",
                        "The subscription purchase is no longer available for query because it has been expired for too long.")
                }
                return (200, PublisherAnswers.subscriptionPurchaseV2(purchase, product: await ledger.catalogue[purchase.productId]))
            case (.post, let p, let act?) where p.hasPrefix("purchases/subscriptionsv2/tokens/") && parts.count == 5:
                return try await subscriptionAction(act, token: parts[4], packageName: packageName, json: json)
            case (.post, let p, let act?) where p.hasPrefix("purchases/subscriptions/") && parts.count == 6:
                let purchase = try await subscription(parts[5], in: packageName)
                switch act {
                case "acknowledge":
                    _ = try await ledger.acknowledge(purchase.token)
                    return (200, [:])
                case "cancel":
                    let canceled = try await ledger.cancel(purchase.token, by: "developer")
                    pushLater { await simulator.notify(canceled, .canceled, at: Date()) }
                    return (200, [:])
                case "defer":
                    let info = json["deferralInfo"] as? [String: Any] ?? [:]
                    guard let desired = (info["desiredExpiryTimeMillis"] as? String).flatMap(Double.init), let end = purchase.expiryTime else {
                        return PublisherAnswers.error(400, "invalid", "deferralInfo.desiredExpiryTimeMillis is required")
                    }
                    let deferred = try await ledger.defer(purchase.token, by: desired / 1000 - end.timeIntervalSince1970, etag: "\(purchase.etag)")
                    return (200, ["newExpiryTimeMillis": PublisherAnswers.millis(deferred.expiryTime ?? end)])
                default: return PublisherAnswers.error(404, "notFound", "No such method.")
                }
            case (.get, "purchases/voidedpurchases", nil):
                return await voidedList(query)
            case (.get, let p, nil) where p.hasPrefix("orders/") && parts.count == 3:
                return try await order(parts[2])
            case (.get, "orders", "batchGet"):
                let ids = query["orderIds"] ?? []
                guard (1...1000).contains(ids.count) else { return PublisherAnswers.error(400, "invalid", "orderIds must name 1 to 1000 orders") }
                var orders: [[String: Any]] = []
                for id in ids { orders.append(try await order(id).1) }
                return (200, ["orders": orders])
            case (.post, let p, "refund") where p.hasPrefix("orders/") && parts.count == 3:
                guard let purchase = await ledger.purchase(orderId: parts[2]) else {
                    throw PlaySimulatorError.refused(404, "notFound", "No order \(parts[2]).")
                }
                if query["revoke"]?.first == "true" {
                    let record = try await ledger.void(purchase.token, orderId: parts[2], source: 1, reason: 0)
                    pushLater { await simulator.notifyVoided(record, at: Date()) }
                } else {
                    try await ledger.recordDeveloperRefund(orderId: parts[2])
                }
                return (200, [:])
            default:
                return PublisherAnswers.error(404, "notFound", "No such method.")
            }
        } catch let error as PlaySimulatorError {
            switch error {
            case .unknown: return PublisherAnswers.error(404, "purchaseTokenNotFound", "The purchase token was not found.")
            case .refused(let status, let reason, let message): return PublisherAnswers.error(status, reason, message)
            }
        } catch {
            return PublisherAnswers.error(500, "backendError", "\(error)")
        }
    }

    private func subscriptionAction(_ action: String, token: String, packageName: String, json: [String: Any]) async throws -> (Int, [String: Any]) {
        let purchase = try await subscription(token, in: packageName)
        switch action {
        case "revoke":
            let context = json["revocationContext"] as? [String: Any] ?? [:]
            guard context["fullRefund"] != nil || context["proratedRefund"] != nil || context["itemBasedRefund"] != nil else {
                return PublisherAnswers.error(400, "invalid", "revocationContext is required")
            }
            let record = try await simulator.ledger.void(purchase.token, source: 1, reason: 0)
            pushLater { await simulator.notifyVoided(record, at: Date()) }
            return (200, [:])
        case "cancel":
            let type = (json["cancellationContext"] as? [String: Any])?["cancellationType"] as? String
            let canceled = try await simulator.ledger.cancel(purchase.token, by: type == "USER_REQUESTED_STOP_RENEWALS" ? "user" : "developer")
            pushLater { await simulator.notify(canceled, .canceled, at: Date()) }
            return (200, [:])
        case "defer":
            let context = json["deferralContext"] as? [String: Any] ?? [:]
            guard let etag = context["etag"] as? String, let duration = (context["deferDuration"] as? String).flatMap(Self.seconds) else {
                return PublisherAnswers.error(400, "invalid", "deferralContext.etag and deferDuration are required")
            }
            if context["validateOnly"] as? Bool == true { return (200, ["itemExpiryTimeDetails": [[String: Any]]()]) }
            let deferred = try await simulator.ledger.defer(purchase.token, by: duration, etag: etag)
            pushLater { await simulator.notify(deferred, .deferred, at: Date()) }
            return (
                200,
                [
                    "itemExpiryTimeDetails": [
                        ["productId": deferred.productId, "expiryTime": PublisherAnswers.time(deferred.expiryTime ?? Date())]
                    ]
                ]
            )
        default:
            return PublisherAnswers.error(404, "notFound", "No such method.")
        }
    }

    private func voidedList(_ query: [String: [String]]) async -> (Int, [String: Any]) {
        let now = Date()
        let start = query["startTime"]?.first.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) } ?? now.addingTimeInterval(-30 * 86_400)
        let end = query["endTime"]?.first.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) } ?? now
        guard now.timeIntervalSince(start) <= 30 * 86_400 + 60, start <= end else {
            return PublisherAnswers.error(400, "invalid", "startTime must be within the last 30 days and before endTime")
        }
        let type = query["type"]?.first.flatMap(Int.init) ?? 0
        let maxResults = min(1000, max(1, query["maxResults"]?.first.flatMap(Int.init) ?? 1000))
        let records = await simulator.ledger.voided(
            from: start, to: end, type: type, includePartial: query["includeQuantityBasedPartialRefund"]?.first == "true")
        let from = query["token"]?.first.flatMap(Int.init) ?? 0
        let page = records.dropFirst(from).prefix(maxResults)
        var answer: [String: Any] = [
            "voidedPurchases": page.map(PublisherAnswers.voided),
            "pageInfo": ["totalResults": records.count, "resultPerPage": maxResults, "startIndex": from],
        ]
        if from + page.count < records.count { answer["tokenPagination"] = ["nextPageToken": "\(from + page.count)"] }
        return (200, answer)
    }

    private func order(_ orderId: String) async throws -> (Int, [String: Any]) {
        guard let purchase = await simulator.ledger.purchase(orderId: orderId) else {
            throw PlaySimulatorError.refused(404, "notFound", "No order \(orderId).")
        }
        var refunded = await simulator.ledger.voided.last { $0.orderId == orderId }
        if refunded == nil, let at = await simulator.ledger.developerRefunds[orderId] {
            refunded = VoidedRecord(
                token: purchase.token, orderId: orderId, purchaseTime: purchase.purchaseTime, voidedTime: at, source: 1, reason: 0, quantity: nil,
                isSubscription: purchase.kind == .subscription)
        }
        return (200, PublisherAnswers.order(orderId, of: purchase, product: await simulator.ledger.catalogue[purchase.productId], refunded: refunded))
    }

    private func owned(_ token: String, in packageName: String) async throws -> PlayPurchase {
        guard let purchase = await simulator.ledger.purchase(token: token), purchase.packageName == packageName else {
            throw PlaySimulatorError.unknown("purchase token")
        }
        return purchase
    }

    private func subscription(_ token: String, in packageName: String) async throws -> PlayPurchase {
        let purchase = try await owned(token, in: packageName)
        guard purchase.kind == .subscription else { throw PlaySimulatorError.refused(400, "invalid", "Invalid Value") }
        return purchase
    }

    /// Google answers the call at once and publishes its notification on its own time.
    private func pushLater(_ push: @escaping @Sendable () async -> Void) {
        Task { await push() }
    }

    /// `abc:acknowledge` → (`abc`, `acknowledge`); a segment without a colon has no action.
    static func split(_ segment: String) -> (String, String?) {
        guard let colon = segment.lastIndex(of: ":") else { return (segment, nil) }
        return (String(segment[..<colon]), String(segment[segment.index(after: colon)...]))
    }

    /// Google's durations: `604800s`.
    static func seconds(_ text: String) -> TimeInterval? {
        guard text.hasSuffix("s") else { return nil }
        return TimeInterval(text.dropLast())
    }
}
