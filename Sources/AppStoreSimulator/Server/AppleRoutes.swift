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
            serverAPI(router, "\(prefix)/inApps/v1/transactions/:id") { request, id in
                await simulator.serverAPI.transactionInfo(id, sandbox: sandbox)
            }
            serverAPI(router, "\(prefix)/inApps/v2/history/:id") { request, id in
                let query = request.uri.queryParameters
                return await simulator.serverAPI.history(
                    id, revision: query.get("revision"), descending: query.get("sort") == "DESCENDING", sandbox: sandbox)
            }
            serverAPI(router, "\(prefix)/inApps/v1/subscriptions/:id") { _, id in
                await simulator.serverAPI.subscriptionStatuses(id, sandbox: sandbox)
            }
            serverAPI(router, "\(prefix)/inApps/v1/lookup/:id") { _, id in
                await simulator.serverAPI.lookUpOrder(id, sandbox: sandbox)
            }
            router.post("\(prefix)/inApps/v1/notifications/history") { request, _ in
                let authorized = simulator.keyCheck.accepts(authorization: request.headers[.authorization])
                let body = try await request.body.collect(upTo: 1 << 16)
                return await faulted(api: true) {
                    guard authorized else { return SimulatorAnswer(status: 401, body: []) }
                    return await Self.notificationHistory(
                        simulator, body: Data(buffer: body), token: request.uri.queryParameters.get("paginationToken"), sandbox: sandbox)
                }
            }
            serverAPI(router, "\(prefix)/inApps/v2/refund/lookup/:id") { request, id in
                await simulator.serverAPI.refundHistory(id, revision: request.uri.queryParameters.get("revision"), sandbox: sandbox)
            }
        }
    }

    /// Get Notification History: `{startDate, endDate, onlyFailures?, transactionId?}` in the body.
    private static func notificationHistory(_ simulator: AppStoreSimulator, body: Data, token: String?, sandbox: Bool) async -> SimulatorAnswer {
        guard let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            let start = (json["startDate"] as? NSNumber)?.doubleValue, let end = (json["endDate"] as? NSNumber)?.doubleValue
        else {
            return .apiError(4_000_015, "Invalid start date.", status: 400)
        }
        guard start <= end else { return .apiError(4_000_013, "Start date after end date.", status: 400) }
        return await simulator.notifications.history(
            sandbox: sandbox, start: Date(timeIntervalSince1970: start / 1000),
            end: Date(timeIntervalSince1970: min(end, Date().timeIntervalSince1970 * 1000 + 1) / 1000),
            onlyFailures: json["onlyFailures"] as? Bool ?? false, transactionId: json["transactionId"] as? String, after: token)
    }

    /// A Server API GET: the bearer token is checked before anything else, as at Apple.
    private func serverAPI(
        _ router: Router<BasicRequestContext>, _ path: RouterPath,
        _ answer: @escaping @Sendable (Request, String) async -> SimulatorAnswer
    ) {
        router.get(path) { request, context in
            let id = context.parameters.get("id") ?? ""
            let authorized = simulator.keyCheck.accepts(authorization: request.headers[.authorization])
            return await faulted(api: true) {
                authorized ? await answer(request, id) : SimulatorAnswer(status: 401, body: [])
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
