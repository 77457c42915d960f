import Foundation
import HTTPTypes
import Hummingbird
import SimulatorFaults

/// One answer of the simulated Google on the wire, after the faults in force: latency
/// first, then at most one fault (a 5xx, a 429 with `Retry-After`, a hang, a body that is
/// not JSON or is cut off).
enum PlayAnswer {
    static func faulted(_ simulator: GooglePlaySimulator, _ answer: () async -> (Int, [String: Any])) async -> Response {
        let (latency, fault, hang) = await simulator.faults.draw()
        if latency > 0 { try? await Task.sleep(for: .seconds(latency)) }
        guard let fault else { return json(await answer()) }
        switch fault {
        case .status:
            return json(PublisherAnswers.error(500, "backendError", "Backend Error"))
        case .http(429):
            return json(PublisherAnswers.error(429, "rateLimitExceeded", "Rate Limit Exceeded"), extra: ["Retry-After": "1"])
        case .http(let code):
            return raw(code, "<html><body>\(code) Service Unavailable</body></html>", type: "text/html")
        case .timeout:
            try? await Task.sleep(for: .seconds(hang))
            return raw(504, "", type: "text/plain")
        case .malformed:
            return raw(200, "<html>Bad Gateway</html>", type: "text/html")
        case .truncated:
            let real = body(await answer().1)
            return raw(200, String(real.prefix(max(1, real.count / 2))), type: "application/json")
        }
    }

    static func json(_ answer: (Int, [String: Any]), extra: [String: String] = [:]) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = "application/json; charset=UTF-8"
        for (name, value) in extra { if let field = HTTPField.Name(name) { fields[field] = value } }
        return Response(status: .init(code: answer.0), headers: fields, body: .init(byteBuffer: ByteBuffer(string: body(answer.1))))
    }

    static func raw(_ status: Int, _ text: String, type: String) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = type
        return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func body(_ object: [String: Any]) -> String { PushSender.json(object) }
}
