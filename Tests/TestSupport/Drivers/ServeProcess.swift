import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// `iapdesk serve` as its own process (the debug binary), so a test can `kill -9` it.
public struct ServeProcess: Sendable {
    public let process: Spawned
    /// `http://127.0.0.1:PORT`, or nil for a worker-only process.
    public let baseURL: String?

    /// Starts `serve` with `arguments` after the config and `environment` added to this
    /// process's; returns once it printed its address. Its log (standard error) goes to `log`
    /// when given.
    public static func start(
        _ binary: String, config: String, tokens: String, arguments: [String] = ["--listen", "127.0.0.1:0"], environment: [String: String] = [:],
        log: String? = nil
    ) async throws -> ServeProcess {
        let process = try Spawned(
            binary, ["serve", "--config", config] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment.merging(["IAPDESK_CLIENT_TOKENS_FILE": tokens]) { $1 }) { $1 },
            output: .pipe, errors: log.map { .file($0) } ?? .null)
        // The first line names the address: "iapdesk serve (all) on http://127.0.0.1:PORT, store …".
        let text = await process.read(until: "\n", timeout: .seconds(20))
        guard text.hasPrefix("iapdesk serve") else {
            process.terminate()
            throw ServeProcessError(description: "serve did not start: \(text)")
        }
        let url = text.split(separator: " ").first { $0.hasPrefix("http://") }.map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }
        return ServeProcess(process: process, baseURL: url)
    }

    public func kill9() async {
        kill(process.processIdentifier, SIGKILL)
        await process.exited()
    }

    /// Sends SIGTERM and waits up to `limit` for the process to exit: how long it took, or
    /// nil if it was still running (it is killed then).
    public func terminate(within limit: Duration) async -> Duration? {
        let started = ContinuousClock.now
        kill(process.processIdentifier, SIGTERM)
        while process.isRunning, ContinuousClock.now - started < limit { try? await Task.sleep(for: .milliseconds(20)) }
        guard !process.isRunning else {
            await kill9()
            return nil
        }
        return ContinuousClock.now - started
    }

    /// One call: status and JSON body, or nil when the process did not answer (killed).
    public func call(_ method: HTTPMethod, _ path: String, json: String?, token: String?) async -> (status: Int, body: [String: Any])? {
        guard let baseURL else { return nil }
        return await LoopbackHTTP.call(method, baseURL + path, json: json, token: token)
    }
}

/// JSON over loopback HTTP, as a game server or an operator's curl would send it.
public enum LoopbackHTTP {
    /// What came back, and how long it took.
    public struct Answer {
        public var status: Int
        public var body: [String: Any]
        public var retryAfter: String?
        public var took: Duration
    }

    /// Status and JSON body, or nil when nothing answered.
    public static func call(_ method: HTTPMethod, _ url: String, json: String? = nil, token: String? = nil) async -> (status: Int, body: [String: Any])? {
        await answer(method, url, json: json, token: token).map { ($0.status, $0.body) }
    }

    /// The whole answer, or nil when nothing answered within `timeout` (generous by default:
    /// the whole suite shares two cores; tests of a time-out pass their own).
    public static func answer(
        _ method: HTTPMethod, _ url: String, json: String? = nil, token: String? = nil, timeout: Duration = .seconds(30)
    ) async -> Answer? {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let started = ContinuousClock.now
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .init(timeout))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            return Answer(
                status: Int(response.status.code), body: (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:],
                retryAfter: response.headers.first(name: "Retry-After"), took: ContinuousClock.now - started)
        } catch {
            return nil
        }
    }
}

public struct ServeProcessError: Error, CustomStringConvertible {
    public var description: String
}
