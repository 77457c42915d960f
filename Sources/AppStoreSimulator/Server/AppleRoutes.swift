import Foundation
import HTTPTypes
import Hummingbird

/// Apple's endpoints on the router, production and `/sandbox`, each answer passed through
/// the faults in force (latency first, then at most one fault).
struct AppleRoutes: Sendable {
    let simulator: AppStoreSimulator

    /// verifyReceipt bodies carry a base64 receipt; Apple's largest are a few hundred KB.
    static let maxBody = 8 << 20

    func add(to router: Router<BasicRequestContext>) {
        for sandbox in [false, true] {
            let prefix = sandbox ? "/sandbox" : ""
            router.post("\(prefix)/verifyReceipt") { request, _ in
                let body = try await request.body.collect(upTo: Self.maxBody)
                return await faulted(api: false) {
                    .json(await simulator.verifyReceipt.answer(body: Array(buffer: body), sandboxEndpoint: sandbox))
                }
            }
            let api = simulator.serverAPI
            serverAPI(router, .get, "\(prefix)/inApps/v1/transactions/:id") { call in
                await api.transactionInfo(call.id, sandbox: sandbox)
            }
            for version in ["v1", "v2"] {
                serverAPI(router, .get, "\(prefix)/inApps/\(version)/history/:id") { call in
                    await api.history(call.id, query: call.query, sandbox: sandbox)
                }
            }
            serverAPI(router, .get, "\(prefix)/inApps/v1/subscriptions/:id") { call in
                await api.subscriptionStatuses(call.id, statuses: call.query.all("status"), sandbox: sandbox)
            }
            serverAPI(router, .get, "\(prefix)/inApps/v1/lookup/:id") { call in
                await api.lookUpOrder(call.id, sandbox: sandbox)
            }
            serverAPI(router, .get, "\(prefix)/inApps/v2/refund/lookup/:id") { call in
                await api.refundHistory(call.id, revision: call.query.first("revision"), sandbox: sandbox)
            }
            serverAPI(router, .get, "\(prefix)/inApps/v1/transactions/appTransactions/:id") { call in
                await api.appTransactionInfo(call.id, sandbox: sandbox)
            }
            serverAPI(router, .post, "\(prefix)/inApps/v1/notifications/history") { call in
                await Self.notificationHistory(simulator, body: call.body, token: call.query.first("paginationToken"), sandbox: sandbox)
            }
            serverAPI(router, .put, "\(prefix)/inApps/v2/transactions/consumption/:id") { call in
                guard let body = call.json else { return Self.badBody }
                return await simulator.sendConsumption(call.id, body: body, sandbox: sandbox)
            }
            serverAPI(router, .put, "\(prefix)/inApps/v1/subscriptions/extend/:id") { call in
                guard let body = call.json else { return Self.badBody }
                return await simulator.extendRenewalDate(call.id, body: body, sandbox: sandbox)
            }
            serverAPI(router, .post, "\(prefix)/inApps/v1/subscriptions/extend/mass") { call in
                guard let body = call.json else { return Self.badBody }
                return await simulator.extendForAll(body: body, sandbox: sandbox)
            }
            serverAPI(router, .get, "\(prefix)/inApps/v1/subscriptions/extend/mass/:product/:id") { call in
                await simulator.massExtensionStatus(productId: call.parameter("product"), requestIdentifier: call.id)
            }
            serverAPI(router, .put, "\(prefix)/inApps/v1/transactions/:id/appAccountToken") { call in
                guard let body = call.json else { return Self.badBody }
                return await simulator.setAppAccountToken(call.id, body: body, sandbox: sandbox)
            }
            serverAPI(router, .post, "\(prefix)/inApps/v1/transactions/:id/finish") { call in
                await simulator.finishTransaction(call.id, sandbox: sandbox)
            }
            serverAPI(router, .post, "\(prefix)/inApps/v1/notifications/test") { _ in
                await simulator.requestTestNotification(sandbox: sandbox)
            }
            serverAPI(router, .get, "\(prefix)/inApps/v1/notifications/test/:id") { call in
                await simulator.testNotificationStatus(call.id)
            }
        }
    }

    static let badBody = SimulatorAnswer.apiError(4_000_000, "Bad request: the body must be a JSON object.", status: 400)

    /// Get Notification History: `{startDate, endDate, onlyFailures?, transactionId?}` in the body.
    private static func notificationHistory(_ simulator: AppStoreSimulator, body: Data, token: String?, sandbox: Bool) async -> SimulatorAnswer {
        guard let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            let start = (json["startDate"] as? NSNumber)?.doubleValue, let end = (json["endDate"] as? NSNumber)?.doubleValue
        else {
            return .apiError(4_000_015, "Invalid start date.", status: 400)
        }
        guard start <= end else { return .apiError(4_000_013, "Start date after end date.", status: 400) }
        let filter = NotificationSender.HistoryRequest(
            onlyFailures: json["onlyFailures"] as? Bool ?? false, transactionId: json["transactionId"] as? String,
            type: json["notificationType"] as? String, subtype: json["notificationSubtype"] as? String)
        if filter.transactionId != nil, filter.type != nil {
            return .apiError(4_000_019, "Invalid request. Supply either a transaction id or a notification type, but not both.", status: 400)
        }
        if filter.type == nil, filter.subtype != nil { return .apiError(4_000_018, "Invalid notification type.", status: 400) }
        return await simulator.notifications.history(
            sandbox: sandbox, start: Date(timeIntervalSince1970: start / 1000),
            end: Date(timeIntervalSince1970: min(end, Date().timeIntervalSince1970 * 1000 + 1) / 1000), filter: filter, after: token)
    }

    /// One Server API call as a handler sees it: the path's id (and other parameters),
    /// the query and the body.
    struct Call: Sendable {
        var id: String
        var parameters: [String: String]
        var query: Query
        var body: Data

        func parameter(_ name: String) -> String { parameters[name] ?? "" }
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    }

    /// A Server API endpoint: the bearer token is checked before anything else, as at Apple.
    private func serverAPI(
        _ router: Router<BasicRequestContext>, _ method: HTTPRequest.Method, _ path: RouterPath,
        _ answer: @escaping @Sendable (Call) async -> SimulatorAnswer
    ) {
        router.on(path, method: method) { request, context in
            let authorized = simulator.keyCheck.accepts(authorization: request.headers[.authorization])
            let body = try await request.body.collect(upTo: 1 << 16)
            var parameters: [String: String] = [:]
            for name in ["id", "product"] { parameters[name] = context.parameters.get(name).map { $0.removingPercentEncoding ?? $0 } }
            let query = Query(request.uri.queryParameters.map { (String($0.key), String($0.value)) })
            let call = Call(id: parameters["id"] ?? "", parameters: parameters, query: query, body: Data(buffer: body))
            return await faulted(api: true) {
                authorized ? await answer(call) : SimulatorAnswer(status: 401, body: [])
            }
        }
    }

    private func faulted(api: Bool, _ answer: () async -> SimulatorAnswer) async -> Response {
        let (latency, fault, hang) = await simulator.faults.draw()
        if latency > 0 { try? await Task.sleep(for: .seconds(latency)) }
        guard let fault else { return Self.response(await answer()) }
        switch fault {
        case .status(let code, let retryable):
            if api { return Self.response(.apiError(5_000_001, "An unknown error occurred. Please try again.", status: 500)) }
            var body: [String: Any] = ["status": code]
            if let retryable { body["is-retryable"] = retryable }
            return Self.response(.json(body))
        case .http(429):
            let answer: SimulatorAnswer = api ? .apiError(4_290_000, "Rate limit exceeded.", status: 429) : SimulatorAnswer(status: 429, body: [])
            return Self.response(answer, extra: ["Retry-After": "1"])
        case .http(let code):
            return Self.response(
                SimulatorAnswer(status: code, headers: ["Content-Type": "text/html"], body: Array("<html><body>\(code) Service Unavailable</body></html>".utf8))
            )
        case .timeout:
            try? await Task.sleep(for: .seconds(hang))
            return Self.response(SimulatorAnswer(status: 504, body: []))
        case .malformed:
            return Self.response(SimulatorAnswer(headers: ["Content-Type": "text/html"], body: Array("<html>Bad Gateway</html>".utf8)))
        case .truncated:
            var real = await answer()
            real.body = Array(real.body.prefix(max(1, real.body.count / 2)))
            return Self.response(real)
        }
    }

    static func response(_ answer: SimulatorAnswer, extra: [String: String] = [:]) -> Response {
        var fields = HTTPFields()
        for (name, value) in answer.headers.merging(extra, uniquingKeysWith: { $1 }) {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        return Response(status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
