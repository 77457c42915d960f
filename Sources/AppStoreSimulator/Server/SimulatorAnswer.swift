import Foundation

/// One HTTP answer before it goes on the wire, so that faults can replace or spoil it.
public struct SimulatorAnswer: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int = 200, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON answer; `object` is built from dictionaries, arrays, strings and numbers.
    static func json(_ object: Any, status: Int = 200) -> SimulatorAnswer {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return SimulatorAnswer(status: status, headers: ["Content-Type": "application/json"], body: Array(body))
    }

    /// The App Store Server API's error body: `{"errorCode": …, "errorMessage": …}`.
    static func apiError(_ code: Int, _ message: String, status: Int) -> SimulatorAnswer {
        json(["errorCode": code, "errorMessage": message], status: status)
    }
}
