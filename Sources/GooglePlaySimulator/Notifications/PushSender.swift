import AsyncHTTPClient
import Foundation
import NIOCore

/// Real-time developer notifications as Cloud Pub/Sub pushes them: each message POSTed to
/// the push endpoint as `{"message": {"data": base64, "messageId", "publishTime", …},
/// "subscription"}` with a Google-signed OIDC token in `Authorization`, until the endpoint
/// answers 102, 200, 201, 202 or 204; other answers are retried (delays compressible for
/// tests). Every message and attempt is kept.
public actor PushSender {
    public struct Message: Sendable, Equatable {
        public var messageId: String
        public var publishTime: Date
        /// The DeveloperNotification JSON, before base64.
        public var data: String
        /// The push body as posted.
        public var body: String
    }

    public struct Entry: Sendable {
        public var message: Message
        /// HTTP statuses (or 0 for no answer), oldest first.
        public var attempts: [Int]
        /// The push tokens each attempt carried, as `Authorization: Bearer …` sent them.
        public var tokens: [String] = []
        public var acknowledged: Bool { attempts.last.map(Self.acks.contains) ?? false }
        static let acks: Set<Int> = [102, 200, 201, 202, 204]
    }

    private let keys: PlayKeys
    private var url: String?
    private var audience: String?
    private var retryDelays: [Duration] = [.seconds(10), .seconds(60), .seconds(600)]
    public private(set) var entries: [Entry] = []
    private var retries: [Task<Void, Never>] = []
    private var nextId: Int64 = 9_100_000_000_000_001
    public static let subscription = "projects/iapdesk-sim/subscriptions/play-rtdn"

    init(keys: PlayKeys) { self.keys = keys }

    /// Where to push (nil: kept, never posted) and the token's audience (the push URL when nil).
    public func configure(url: String?, audience: String? = nil, retryDelays: [Duration]? = nil) {
        self.url = url
        self.audience = audience
        if let retryDelays { self.retryDelays = retryDelays }
    }

    /// Publishes `notification` (a DeveloperNotification object) now; true when acknowledged
    /// at the first try.
    @discardableResult
    public func publish(_ notification: [String: Any], at date: Date = Date()) async -> Bool {
        entries.append(Entry(message: message(notification, at: date), attempts: []))
        let index = entries.count - 1
        if await attempt(index) { return true }
        let delays = retryDelays
        retries.append(
            Task { [weak self] in
                for delay in delays {
                    try? await Task.sleep(for: delay)
                    guard !Task.isCancelled, let self else { return }
                    if await self.attempt(index) { return }
                }
            })
        return false
    }

    /// The push body for `notification` under the next message id, as `publish` posts it;
    /// the benchmark posts such bodies itself to time each acknowledgement.
    public func message(_ notification: [String: Any], at date: Date = Date()) -> Message {
        let data = Self.json(notification)
        let messageId = String(nextId)
        nextId += 1
        let time = Self.rfc3339(date)
        let message: [String: Any] = [
            "attributes": [:] as [String: String], "data": Data(data.utf8).base64EncodedString(), "messageId": messageId, "message_id": messageId,
            "publishTime": time, "publish_time": time,
        ]
        let body = Self.json(["message": message, "subscription": Self.subscription])
        return Message(messageId: messageId, publishTime: date, data: data, body: body)
    }

    /// Stops the retries still scheduled.
    public func stop() {
        for task in retries { task.cancel() }
        retries = []
    }

    private func attempt(_ index: Int) async -> Bool {
        guard let url else { return false }
        let status: Int
        do {
            let token = try keys.pushToken(audience: audience ?? url)
            entries[index].tokens.append(token)
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.body = .bytes(ByteBuffer(string: entries[index].message.body))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            _ = try? await response.body.collect(upTo: 1 << 16)
            status = Int(response.status.code)
        } catch {
            status = 0
        }
        entries[index].attempts.append(status)
        return Entry.acks.contains(status)
    }

    static func json(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// RFC 3339 in UTC with milliseconds, as Google writes times.
    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
