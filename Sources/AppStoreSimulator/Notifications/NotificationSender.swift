import AsyncHTTPClient
import Foundation
import NIOCore

/// The simulator's App Store Server Notifications V2 delivery: each notification is posted
/// to the URL configured for its environment; production retries on Apple's schedule
/// (+1, +12, +24, +48, +72 hours after the previous attempt), sandbox tries once
/// (production.md §1.1). Delays can be compressed for tests. Every notification and
/// attempt is kept as Notification History, which Get Notification History serves.
public actor NotificationSender {
    public struct Attempt: Sendable, Equatable {
        public var date: Date
        /// Apple's `sendAttemptResult`: SUCCESS, UNSUCCESSFUL_HTTP_RESPONSE_CODE, NO_RESPONSE, TIMED_OUT…
        public var result: String

        var json: [String: Any] { ["attemptDate": date.milliseconds, "sendAttemptResult": result] }
    }

    /// Get Notification History's filters: at most one of a transaction and a type (with
    /// its subtype), and optionally only the notifications never delivered.
    struct HistoryRequest {
        var onlyFailures = false
        var transactionId: String?
        var type: String?
        var subtype: String?

        func admits(_ entry: Entry) -> Bool {
            (!onlyFailures || !entry.delivered)
                && (transactionId.map(entry.notification.transactionIds.contains) ?? true)
                && (type.map { $0 == entry.notification.type } ?? true)
                && (subtype.map { $0 == entry.notification.subtype } ?? true)
        }
    }

    public struct Entry: Sendable {
        public var notification: SimulatedNotification
        public var attempts: [Attempt]
        public var delivered: Bool { attempts.contains { $0.result == "SUCCESS" } }
    }

    /// Apple's V2 retry delays, each after the previous attempt.
    public static let appleRetryDelays: [Duration] = [1, 12, 24, 48, 72].map { .seconds($0 * 3_600) }

    private var urls: [Bool: String] = [:]
    private var retryDelays = NotificationSender.appleRetryDelays
    private(set) public var entries: [Entry] = []
    private var retries: [Task<Void, Never>] = []

    public init() {}

    /// Where to post (nil: that environment's notifications are kept in history, never
    /// posted); `retryDelays` replaces Apple's schedule (compressed in tests).
    public func configure(production: String?, sandbox: String?, retryDelays: [Duration]? = nil) {
        urls[false] = production
        urls[true] = sandbox
        if let retryDelays { self.retryDelays = retryDelays }
    }

    /// Keeps `notification` in history and posts it now; retries (production only) run on
    /// their own until one succeeds or the schedule ends.
    @discardableResult
    public func send(_ notification: SimulatedNotification) async -> Bool {
        entries.append(Entry(notification: notification, attempts: []))
        let index = entries.count - 1
        if await attempt(index) { return true }
        guard !notification.isSandbox else { return false }
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

    public func entry(uuid: String) -> Entry? { entries.first { $0.notification.uuid == uuid } }

    /// Stops the retries still scheduled.
    public func stop() {
        for task in retries { task.cancel() }
        retries = []
    }

    private func attempt(_ index: Int) async -> Bool {
        let notification = entries[index].notification
        guard let url = urls[notification.isSandbox] ?? nil else { return false }
        let result = await Self.post(notification.body, to: url)
        entries[index].attempts.append(Attempt(date: Date(), result: result))
        return result == "SUCCESS"
    }

    private static func post(_ body: String, to url: String) async -> String {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
            _ = try? await response.body.collect(upTo: 1 << 16)
            return (200...206).contains(response.status.code) ? "SUCCESS" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            return "TIMED_OUT"
        } catch {
            return "NO_RESPONSE"
        }
    }

    /// Get Notification History for one environment: notifications signed in
    /// [`start`, `end`] (optionally only those never delivered), 20 a page.
    func history(sandbox: Bool, start: Date, end: Date, filter: HistoryRequest, after token: String?) -> SimulatorAnswer {
        let matching = entries.filter { entry in
            entry.notification.isSandbox == sandbox && entry.notification.signedDate >= start && entry.notification.signedDate <= end
                && filter.admits(entry)
        }
        let from = token.flatMap(Int.init) ?? 0
        guard from >= 0, from <= matching.count else { return .apiError(4_000_017, "Invalid pagination token.", status: 400) }
        let page = matching[from..<min(matching.count, from + 20)]
        var body: [String: Any] = [
            "hasMore": from + page.count < matching.count,
            "notificationHistory": page.map { entry in
                [
                    "signedPayload": entry.notification.signedPayload,
                    "sendAttempts": entry.attempts.map(\.json),
                ] as [String: Any]
            },
        ]
        if from + page.count < matching.count { body["paginationToken"] = String(from + page.count) }
        return .json(body)
    }
}
