import AppStore
import OrderDomain
import OrderStore

/// Apple's own record of what it sent (Get Notification History, every notification with
/// its send attempts) set beside what the store kept, by `notificationUUID`: the answer to
/// "did Apple ever tell us?" for a span or a transaction.
public enum AppleSendHistory {
    public struct Failed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Up to `pages` pages of 20, oldest first as Apple lists them.
    public static func compare(
        client: ServerAPIClient, decoder: NotificationDecoder, store: OrderStore, from: Millis, until: Millis, transactionId: String? = nil,
        environment: AppleEnvironment, pages: Int = 10
    ) async throws -> [AppleSendRecord] {
        var records: [AppleSendRecord] = []
        var token: String?
        for _ in 0..<max(1, pages) {
            let answer = await client.notificationHistory(
                start: from, end: until, onlyFailures: false, transactionId: transactionId, paginationToken: token, in: environment)
            let page: ServerAPIClient.NotificationHistoryPage
            switch answer {
            case .success(let answered): page = answered.value
            case .failure(let failure): throw Failed(description: "Get Notification History (\(environment.rawValue)): \(failure)")
            }
            for entry in page.entries {
                let decoded = await decoder.decode(signedPayload: entry.signedPayload, endpoint: environment, via: .history)
                var received: NotificationRecord?
                if let uuid = decoded.facts.uuid { received = try await store.notifications.record(uuid: uuid) }
                records.append(AppleSendRecord(facts: decoded.facts, rejection: decoded.rejection, attempts: entry.attempts, received: received))
            }
            guard page.hasMore, let next = page.paginationToken else { break }
            token = next
        }
        return records
    }
}
