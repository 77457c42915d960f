import Foundation
import NIOHTTP1
import OrderDomain
import StoreHTTP

/// Why a call to Google gave no usable answer: Google's HTTP status and `reason`
/// (`purchaseTokenNotFound`, `permissionDenied`…), or the transport's failure.
public struct PlayCallFailure: Error, Sendable, Equatable {
    public var httpStatus: Int?
    public var reason: String
    public var latencyMs: Int
    public var transportError: String?
}

/// An answer Google gave: its JSON body as sent, and how long it took.
public struct PlayAnswerBody: Sendable {
    public var body: Data
    public var latencyMs: Int
}

/// The Google Play Developer API (androidpublisher v3) as iapdesk calls it, as the service
/// account: one purchase token's state (one-time products, subscriptions), the
/// acknowledgement and consumption Google asks of a delivered purchase, the voided
/// purchases. A 401 forgets the access token and tries once more with a new one.
public final class PlayClient: Sendable {
    public let settings: PlaySettings
    let http: StoreHTTP
    let tokens: AccessTokens

    public init(settings: PlaySettings) {
        self.settings = settings
        http = StoreHTTP(timeout: settings.requestTimeout, maxRetryAfter: .seconds(5), maxConnections: settings.maxConnections, peer: "Google")
        tokens = AccessTokens(key: settings.serviceAccount, http: http)
    }

    /// Closes the connection pool; call once when done.
    public func shutdown() async { await http.shutdown() }

    /// `purchases.productsv2.getproductpurchasev2`.
    public func productPurchase(package: String, token: String) async -> Result<PlayAnswerBody, PlayCallFailure> {
        await call(.GET, package, "purchases/productsv2/tokens/\(Self.segment(token))")
    }

    /// `purchases.subscriptionsv2.get`.
    public func subscriptionPurchase(package: String, token: String) async -> Result<PlayAnswerBody, PlayCallFailure> {
        await call(.GET, package, "purchases/subscriptionsv2/tokens/\(Self.segment(token))")
    }

    /// Acknowledges (or consumes) a delivered purchase; nil when Google took it, else why not.
    /// A consumption Google already has (a crash between its answer and our record) counts.
    public func acknowledgeRefusal(_ request: PlayAcknowledgement) async -> String? {
        let token = Self.segment(request.purchaseToken)
        let product = Self.segment(request.productId)
        let path =
            switch (request.kind, request.consume) {
            case (.subscription, _): "purchases/subscriptions/\(product)/tokens/\(token):acknowledge"
            case (.oneTime, true): "purchases/products/\(product)/tokens/\(token):consume"
            case (.oneTime, false): "purchases/products/\(product)/tokens/\(token):acknowledge"
            }
        switch await call(.POST, request.packageName, path, body: "{}") {
        case .success: return nil
        case .failure(let failure):
            if request.consume, failure.httpStatus == 400,
                case .success(let answer) = await productPurchase(package: request.packageName, token: request.purchaseToken),
                let facts = try? PlayAnswerReader.productFacts(answer.body, token: request.purchaseToken, package: request.packageName), facts.consumed
            {
                return nil
            }
            return Self.describe(failure)
        }
    }

    /// `purchases.voidedpurchases.list` from `since` (at most 30 days back), subscriptions and
    /// quantity-based partial refunds included, every page.
    public func voidedPurchases(package: String, since: Date, now: Date = Date()) async -> Result<[PlayVoidedPurchase], PlayCallFailure> {
        let start = max(since, now.addingTimeInterval(-30 * 86_400 + 60))
        var query = [
            ("startTime", "\(Int64(start.timeIntervalSince1970 * 1000))"), ("type", "1"), ("includeQuantityBasedPartialRefund", "true"),
            ("maxResults", "1000"),
        ]
        var all: [PlayVoidedPurchase] = []
        for _ in 0..<100 {
            switch await call(.GET, package, "purchases/voidedpurchases", query: query) {
            case .failure(let failure): return .failure(failure)
            case .success(let answer):
                guard let page = try? PlayAnswerReader.voidedPage(answer.body) else {
                    return .failure(PlayCallFailure(httpStatus: 200, reason: "an unreadable voided purchases page", latencyMs: answer.latencyMs))
                }
                all += page.records
                guard let next = page.nextPageToken else { return .success(all) }
                query.removeAll { $0.0 == "token" }
                query.append(("token", next))
            }
        }
        return .success(all)
    }

    /// One call under `applications/{package}/`, with the service account's bearer token.
    func call(_ method: HTTPMethod, _ package: String, _ path: String, query: [(String, String)] = [], body: String? = nil) async -> Result<
        PlayAnswerBody, PlayCallFailure
    > {
        var url = "\(settings.apiBase)/androidpublisher/v3/applications/\(Self.segment(package))/\(path)"
        if !query.isEmpty { url += "?" + query.map { "\($0.0)=\(AccessTokens.escape($0.1))" }.joined(separator: "&") }
        var latency = 0
        for attempt in 0..<2 {
            let bearer: String
            switch await tokens.bearer() {
            case .failure(var failure):
                failure.latencyMs += latency
                return .failure(failure)
            case .success(let token): bearer = token
            }
            let exchange = await http.send(method, url, headers: [("Authorization", "Bearer \(bearer)")], body: body.map { Array($0.utf8) })
            latency += exchange.latencyMs
            if exchange.httpStatus == 401, attempt == 0 {
                await tokens.invalidate()
                continue
            }
            guard let status = exchange.httpStatus else {
                return .failure(
                    PlayCallFailure(
                        httpStatus: nil, reason: exchange.transportError ?? "no answer", latencyMs: latency, transportError: exchange.transportError))
            }
            guard (200..<300).contains(status) else {
                return .failure(PlayCallFailure(httpStatus: status, reason: PlayAnswerReader.errorReason(Data(exchange.body)), latencyMs: latency))
            }
            return .success(PlayAnswerBody(body: Data(exchange.body), latencyMs: latency))
        }
        return .failure(PlayCallFailure(httpStatus: 401, reason: "Google refused a fresh access token", latencyMs: latency))
    }

    public static func describe(_ failure: PlayCallFailure) -> String {
        failure.httpStatus.map { "Google HTTP \($0): \(failure.reason)" } ?? "no answer from Google: \(failure.reason)"
    }

    /// A path segment as Google's URLs carry it.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}

extension PlayClient: PlayActions {
    public func revokeRefusal(package: String, purchaseToken: String, prorated: Bool) async -> String? {
        let context = prorated ? #"{"revocationContext":{"proratedRefund":{}}}"# : #"{"revocationContext":{"fullRefund":{}}}"#
        switch await call(.POST, package, "purchases/subscriptionsv2/tokens/\(Self.segment(purchaseToken)):revoke", body: context) {
        case .success: return nil
        case .failure(let failure): return Self.describe(failure)
        }
    }

    public func deferAnswer(package: String, purchaseToken: String, seconds: Int64) async -> PlayDeferAnswer {
        // Google defers only against the state it last showed: its etag. The purchase may
        // change between the read and the deferral (the worker acknowledging it): Google then
        // answers 409, and the deferral is asked again against the new etag, three times at most.
        var attempt = 1
        while true {
            let current: PlayAnswerBody
            switch await subscriptionPurchase(package: package, token: purchaseToken) {
            case .failure(let failure): return .refused(Self.describe(failure))
            case .success(let answer): current = answer
            }
            guard let etag = (try? JSONSerialization.jsonObject(with: current.body) as? [String: Any])?["etag"] as? String else {
                return .refused("Google's subscription answer has no etag to defer against")
            }
            let body = #"{"deferralContext":{"etag":"\#(etag)","deferDuration":"\#(seconds)s"}}"#
            switch await call(.POST, package, "purchases/subscriptionsv2/tokens/\(Self.segment(purchaseToken)):defer", body: body) {
            case .failure(let failure) where failure.httpStatus == 409 && attempt < 3:
                attempt += 1
            case .failure(let failure): return .refused(Self.describe(failure))
            case .success(let answer):
                let json = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
                let end = ((json?["itemExpiryTimeDetails"] as? [[String: Any]])?.first?["expiryTime"]).flatMap(PlayAnswerReader.millis)
                guard let end else { return .refused("Google's deferral answer names no new expiry") }
                return .deferred(newExpiry: end)
            }
        }
    }

    public func refundRefusal(package: String, orderId: String, revoke: Bool) async -> String? {
        switch await call(.POST, package, "orders/\(Self.segment(orderId)):refund", query: revoke ? [("revoke", "true")] : [], body: "{}") {
        case .success: nil
        case .failure(let failure): Self.describe(failure)
        }
    }

    public func googleOrder(_ orderId: String) async -> GoogleOrderAnswer {
        for package in settings.packageNames {
            switch await call(.GET, package, "orders/\(Self.segment(orderId))") {
            case .failure(let failure) where failure.httpStatus == 404: continue
            case .failure(let failure): return .failed(Self.describe(failure))
            case .success(let answer):
                do { return try PlayAnswerReader.order(answer.body, package: package) } catch { return .failed("Google's answer for \(orderId): \(error)") }
            }
        }
        return .notFound
    }
}
