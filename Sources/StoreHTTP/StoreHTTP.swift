import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// What one exchange with a store gave: an HTTP answer, or why none came. Never thrown:
/// a store failing is an outcome to record (R1, R3), not an exception.
public struct Exchange: Sendable {
    public var httpStatus: Int?
    public var body: [UInt8]
    /// A time-out, a refused connection, a body too large…
    public var transportError: String?
    public var latencyMs: Int
    /// A 429's `Retry-After`, in seconds.
    public var retryAfter: Int?

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// The HTTP client for a store's endpoints (Apple's, Google's): one connection pool, a
/// deadline per request, bodies capped, and 429 `Retry-After` honoured up to a limit.
public final class StoreHTTP: Sendable {
    let client: HTTPClient
    let timeout: Duration
    let maxRetryAfter: Duration
    /// Apple's largest answers (verifyReceipt with years of renewals) are a few MB.
    static let maxBody = 16 << 20
    /// The store's name in the reasons an operator reads ("Apple closed the connection").
    let peer: String

    public init(timeout: Duration, maxRetryAfter: Duration, maxConnections: Int, peer: String = "Apple") {
        self.peer = peer
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: maxConnections)
        configuration.timeout = .init(connect: .seconds(10))
        configuration.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.timeout = timeout
        self.maxRetryAfter = maxRetryAfter
    }

    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Sends the request; on a 429 whose `Retry-After` is short enough, waits it out and
    /// sends once more. The latency covers the whole exchange.
    /// A body goes as JSON unless `json` is false (then `headers` name its type).
    public func send(_ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], body: [UInt8]? = nil, json: Bool = true) async -> Exchange {
        let start = ContinuousClock.now
        var exchange = await sendOnce(method, url, headers: headers, body: body, json: json)
        if exchange.httpStatus == 429, let wait = exchange.retryAfter, Duration.seconds(wait) <= maxRetryAfter {
            try? await Task.sleep(for: .seconds(wait))
            exchange = await sendOnce(method, url, headers: headers, body: body, json: json)
        }
        exchange.latencyMs = Self.milliseconds(ContinuousClock.now - start)
        return exchange
    }

    private func sendOnce(_ method: HTTPMethod, _ url: String, headers: [(String, String)], body: [UInt8]?, json: Bool) async -> Exchange {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            if json { request.headers.add(name: "Content-Type", value: "application/json") }
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let client = self.client
            return try await ExchangeDeadline.run(within: timeout) { [request, timeout] in
                let response = try await client.execute(request, timeout: .init(timeout))
                let collected = try await response.body.collect(upTo: Self.maxBody)
                return Exchange(
                    httpStatus: Int(response.status.code), body: Array(buffer: collected), latencyMs: 0,
                    retryAfter: response.headers.first(name: "Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
            }
        } catch {
            return Exchange(httpStatus: nil, body: [], transportError: describe(error), latencyMs: 0)
        }
    }

    /// Short, operator-readable reasons; never a URL or a secret.
    private func describe(_ error: any Error) -> String {
        if error is NIOTooManyBytesError { return "the answer is larger than \(Self.maxBody >> 20) MB" }
        return TransportErrorText.describe(error, timeout: timeout, peer: peer)
    }

    public static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
