import Foundation
import NIOHTTP1
import OrderDomain
import Receipts
import StoreHTTP

/// The App Store Server API endpoints iapdesk uses (reference/apple-iap.md §3.2). Every
/// request carries a fresh ES256 token; every `signed…` value in an answer is verified
/// (signature, chain to the configured roots at its `signedDate`, Apple's marker OIDs)
/// before it is read. Failures come back as values, never thrown. A call is made as the app
/// ``ActingApp`` names (its key, its bundle id in the token), else as `bundleId`.
public struct ServerAPIClient: Sendable {
    let http: StoreHTTP
    let credentials: ServerAPICredentials
    public let bundleId: String
    let trust: TrustRoots
    /// The store's other apps' keys, by bundle id.
    let otherApps: [String: ServerAPICredentials]

    public init(
        http: StoreHTTP, credentials: ServerAPICredentials, bundleId: String, trust: TrustRoots, otherApps: [String: ServerAPICredentials] = [:]
    ) {
        self.http = http
        self.credentials = credentials
        self.bundleId = bundleId
        self.trust = trust
        self.otherApps = otherApps
    }

    /// The key and bundle id a call made now is signed with; nil for an app without a key.
    var acting: (credentials: ServerAPICredentials, bundleId: String)? {
        guard let app = ActingApp.bundleId, app != bundleId else { return (credentials, bundleId) }
        return otherApps[app].map { ($0, app) }
    }

    /// Every app this client can act as, the first app first.
    public var bundleIds: [String] { [bundleId] + otherApps.keys.sorted() }

    /// A verified answer and the exchange it came from.
    public struct Answer<Value: Sendable>: Sendable {
        public var value: Value
        public var body: String
        public var latencyMs: Int
    }

    /// A subscription's last transaction and renewal intent (Get All Subscription Statuses).
    public struct SubscriptionState: Sendable {
        /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
        public var status: Int?
        public var originalTransactionId: String?
        public var transaction: JWSTransaction?
        public var renewal: JWSRenewalInfo?
    }

    /// Get Transaction Info: `GET /inApps/v1/transactions/{transactionId}`.
    public func transactionInfo(_ transactionId: String, in environment: AppleEnvironment) async -> Result<Answer<JWSTransaction>, ServerAPIFailure> {
        await get("/inApps/v1/transactions/\(escaped(transactionId))", environment, as: TransactionInfoResponse.self) { response in
            try await verify(response.signedTransactionInfo, as: JWSTransaction.self)
        }
    }

    /// Get Transaction History v2, one page: `GET /inApps/v2/history/{id}?revision=`.
    public func transactionHistory(_ transactionId: String, in environment: AppleEnvironment, revision: String? = nil) async -> Result<
        Answer<(page: TransactionPage, transactions: [JWSTransaction])>, ServerAPIFailure
    > {
        await page("/inApps/v2/history/\(escaped(transactionId))", environment, revision: revision)
    }

    /// Get Refund History, one page: `GET /inApps/v2/refund/lookup/{id}?revision=`.
    public func refundHistory(_ transactionId: String, in environment: AppleEnvironment, revision: String? = nil) async -> Result<
        Answer<(page: TransactionPage, transactions: [JWSTransaction])>, ServerAPIFailure
    > {
        await page("/inApps/v2/refund/lookup/\(escaped(transactionId))", environment, revision: revision)
    }

    /// Every page of a paged endpoint, following `revision` while `hasMore` (at most `maxPages`).
    public func allPages(
        maxPages: Int = 50,
        _ fetch: (String?) async -> Result<Answer<(page: TransactionPage, transactions: [JWSTransaction])>, ServerAPIFailure>
    ) async -> Result<[JWSTransaction], ServerAPIFailure> {
        var all: [JWSTransaction] = []
        var revision: String?
        for _ in 0..<maxPages {
            switch await fetch(revision) {
            case .failure(let failure): return .failure(failure)
            case .success(let answer):
                all += answer.value.transactions
                guard answer.value.page.hasMore == true, let next = answer.value.page.revision else { return .success(all) }
                revision = next
            }
        }
        return .success(all)
    }

    /// Get All Subscription Statuses: `GET /inApps/v1/subscriptions/{id}`.
    public func subscriptionStatuses(_ transactionId: String, in environment: AppleEnvironment) async -> Result<Answer<[SubscriptionState]>, ServerAPIFailure> {
        await get("/inApps/v1/subscriptions/\(escaped(transactionId))", environment, as: StatusResponse.self) { response in
            var states: [SubscriptionState] = []
            for last in response.data.flatMap(\.lastTransactions) {
                states.append(
                    SubscriptionState(
                        status: last.status, originalTransactionId: last.originalTransactionId,
                        transaction: try await last.signedTransactionInfo.asyncMap { try await verify($0, as: JWSTransaction.self) },
                        renewal: try await last.signedRenewalInfo.asyncMap { try await verify($0, as: JWSRenewalInfo.self) }))
            }
            return states
        }
    }

    /// Look Up Order ID: `GET /inApps/v1/lookup/{orderId}`, the id on the customer's Apple
    /// invoice. An id Apple does not know is a failure that says so.
    public func lookUpOrder(_ orderId: String, in environment: AppleEnvironment) async -> Result<Answer<[JWSTransaction]>, ServerAPIFailure> {
        await get("/inApps/v1/lookup/\(escaped(orderId))", environment, as: OrderLookupResponse.self) { response in
            guard response.status == 0 else { throw LookupInvalid() }
            var transactions: [JWSTransaction] = []
            for signed in response.signedTransactions { transactions.append(try await verify(signed, as: JWSTransaction.self)) }
            return transactions
        }
    }

    private func page(_ path: String, _ environment: AppleEnvironment, revision: String?) async -> Result<
        Answer<(page: TransactionPage, transactions: [JWSTransaction])>, ServerAPIFailure
    > {
        let query = revision.map { "?revision=\(escaped($0))" } ?? ""
        return await get(path + query, environment, as: TransactionPage.self) { page in
            var transactions: [JWSTransaction] = []
            for signed in page.signedTransactions { transactions.append(try await verify(signed, as: JWSTransaction.self)) }
            return (page, transactions)
        }
    }

    /// One page of Get Notification History. The payloads are checked by the same decoder
    /// as the receiver's, not here.
    public struct NotificationHistoryPage: Sendable {
        public var entries: [NotificationHistoryEntry]
        public var hasMore: Bool
        public var paginationToken: String?

        public var signedPayloads: [String] { entries.map(\.signedPayload) }
    }

    /// One notification in Apple's history, with each of Apple's tries to deliver it.
    public struct NotificationHistoryEntry: Sendable {
        public var signedPayload: String
        /// Oldest first: when Apple tried, and `sendAttemptResult` (SUCCESS, NO_RESPONSE…).
        public var attempts: [(at: Millis?, result: String)]
    }

    /// Get Notification History, one page: `POST /inApps/v1/notifications/history`, the
    /// notifications Apple signed between `start` and `end`, only those it failed to
    /// deliver with `onlyFailures`, only those about `transactionId` when given.
    public func notificationHistory(
        start: Millis, end: Millis, onlyFailures: Bool, transactionId: String? = nil, paginationToken: String?, in environment: AppleEnvironment
    ) async -> Result<Answer<NotificationHistoryPage>, ServerAPIFailure> {
        struct Request: Encodable {
            var startDate: Millis
            var endDate: Millis
            var onlyFailures: Bool
            var transactionId: String?
        }
        let query = paginationToken.map { "?paginationToken=\(escaped($0))" } ?? ""
        let body = Request(startDate: start, endDate: end, onlyFailures: onlyFailures, transactionId: transactionId)
        return await call(.POST, "/inApps/v1/notifications/history" + query, environment, json: body, as: NotificationHistoryResponse.self) { response in
            NotificationHistoryPage(
                entries: response.notificationHistory.map { item in
                    NotificationHistoryEntry(
                        signedPayload: item.signedPayload,
                        attempts: (item.sendAttempts ?? []).map { ($0.attemptDate?.milliseconds, $0.sendAttemptResult ?? "?") })
                }, hasMore: response.hasMore ?? false, paginationToken: response.paginationToken)
        }
    }

    private struct LookupInvalid: Error {}

    /// One GET: the token, the exchange, Apple's error body when not 200, then `read`
    /// over the decoded answer (where the JWS checks happen).
    private func get<Response: Decodable, Value: Sendable>(
        _ path: String, _ environment: AppleEnvironment, as type: Response.Type, read: (Response) async throws -> Value
    ) async -> Result<Answer<Value>, ServerAPIFailure> {
        await call(.GET, path, environment, body: nil, as: type, read: read)
    }

    /// A call whose body is `json` encoded (none when nil).
    func call<Body: Encodable, Response: Decodable, Value: Sendable>(
        _ method: HTTPMethod, _ path: String, _ environment: AppleEnvironment, json: Body?, as type: Response.Type,
        read: (Response) async throws -> Value
    ) async -> Result<Answer<Value>, ServerAPIFailure> {
        let body: [UInt8]?
        do { body = try json.map { Array(try JSONEncoder().encode($0)) } } catch {
            return .failure(ServerAPIFailure(transportError: "could not encode the request: \(error)", latencyMs: 0, body: ""))
        }
        return await call(method, path, environment, body: body, as: type, read: read)
    }

    private func call<Response: Decodable, Value: Sendable>(
        _ method: HTTPMethod, _ path: String, _ environment: AppleEnvironment, body: [UInt8]?, as type: Response.Type, read: (Response) async throws -> Value
    ) async -> Result<Answer<Value>, ServerAPIFailure> {
        guard let acting else {
            return .failure(
                ServerAPIFailure(
                    transportError: "no App Store Server API key is configured for \(ActingApp.bundleId ?? bundleId)", latencyMs: 0, body: ""))
        }
        let (credentials, bundleId) = acting
        let token: String
        do { token = try ServerAPIToken.make(credentials, bundleId: bundleId) } catch {
            return .failure(ServerAPIFailure(transportError: "could not sign the API token: \(error)", latencyMs: 0, body: ""))
        }
        let exchange = await http.send(
            method, credentials.baseURL(environment) + path,
            headers: [
                ("Authorization", "Bearer \(token)"), ("Accept", "application/json"), ("User-Agent", "iapdesk"),
            ] + (body == nil ? [] : [("Content-Type", "application/json")]), body: body)
        var failure = ServerAPIFailure(
            httpStatus: exchange.httpStatus, transportError: exchange.transportError, latencyMs: exchange.latencyMs, body: exchange.text)
        guard exchange.transportError == nil else { return .failure(failure) }
        guard let status = exchange.httpStatus, (200..<300).contains(status) else {
            let payload = try? JSONDecoder().decode(ErrorPayload.self, from: Data(exchange.body))
            failure.errorCode = payload?.errorCode
            failure.message = payload?.errorMessage
            failure.retryAfter = exchange.retryAfter
            if exchange.httpStatus == 401 { failure.message = "Apple refused the API key (check issuer id, key id and the .p8)" }
            return .failure(failure)
        }
        do {
            // 202 and some 200s carry no body: read as an empty object.
            let response = try JSONDecoder().decode(Response.self, from: exchange.body.isEmpty ? Data("{}".utf8) : Data(exchange.body))
            return .success(Answer(value: try await read(response), body: exchange.text, latencyMs: exchange.latencyMs))
        } catch is LookupInvalid {
            failure.message = "Apple knows no such order id"
            failure.errorCode = 4_040_010
            return .failure(failure)
        } catch let error as ReceiptError {
            failure.transportError = "Apple's answer did not verify: \(error)"
            return .failure(failure)
        } catch {
            failure.transportError = "unreadable answer from Apple: \(error)"
            return .failure(failure)
        }
    }

    func verify<T: Decodable>(_ compact: String, as type: T.Type) async throws(ReceiptError) -> T {
        try await JWS(compact: compact).verified(as: type, trust: trust, bundleId: nil)
    }

    /// A path segment: RFC 3986's unreserved characters as they are, the rest percent-encoded.
    func escaped(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
