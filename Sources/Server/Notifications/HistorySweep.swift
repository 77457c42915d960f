import AppStore
import Foundation
import OrderDomain
import OrderStore

/// The scheduled sweep of Get Notification History (`onlyFailures`): what Apple could not
/// deliver while the receiver was down comes in through the same decoder and store call
/// as the receiver's, so it is verified, de-duplicated and applied the same way. The
/// watermark (the end of the last complete sweep) is kept in the store.
struct HistorySweep: Sendable {
    struct Settings: Sendable {
        /// Time between sweeps.
        var interval: Millis = .minutes(10)
        /// How far back the first sweep looks (no watermark yet).
        var firstLookBack: Millis = .hours(72)
        /// Each sweep starts this long before the watermark: a notification signed just
        /// before the last sweep may not have failed yet then.
        var overlap: Millis = .minutes(15)
        var maxPages = 500
    }

    let store: OrderStore
    let client: ServerAPIClient
    let decoder: NotificationDecoder
    let settings: Settings

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Sweeps `environment` up to `now` for each app of the store (each has its own history
    /// and watermark); returns when the next sweep is due. Apple's 429 names the time to
    /// come back; other failures throw (the job backs off).
    func run(_ environment: AppleEnvironment, now: Millis = .now()) async throws -> (next: Millis, recovered: Int) {
        var next = now + settings.interval
        var recovered = 0
        var failure: (any Error)?
        for app in client.bundleIds {
            do {
                let swept = try await ActingApp.$bundleId.withValue(app) {
                    // The first app keeps the watermark it had before a store served several.
                    try await sweep(environment, key: "notification_history.\(environment.rawValue)" + (app == client.bundleId ? "" : ".\(app)"), now: now)
                }
                next = min(next, swept.next)
                recovered += swept.recovered
            } catch {
                // One app's failure does not keep the others' history from being swept.
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return (next, recovered)
    }

    private func sweep(_ environment: AppleEnvironment, key: String, now: Millis) async throws -> (next: Millis, recovered: Int) {
        // Apple keeps 180 days of history (30 in sandbox).
        let oldest = now - .hours(24 * (environment == .production ? 179 : 29))
        let watermark = try await store.serviceState(key).flatMap { Int64($0) } ?? now - settings.firstLookBack
        let start = max(oldest, watermark - settings.overlap)
        let app = ActingApp.bundleId ?? client.bundleId
        var token: String?
        var recovered = 0
        for _ in 0..<settings.maxPages {
            switch await client.notificationHistory(start: start, end: now, onlyFailures: true, paginationToken: token, in: environment) {
            case .failure(let failure):
                if failure.httpStatus == 429 { return (failure.retryAt(now: now) ?? now + .minutes(1), recovered) }
                throw Failed(description: "Get Notification History (\(app), \(environment.rawValue)): \(failure)")
            case .success(let answer):
                for payload in answer.value.signedPayloads {
                    let incoming = await decoder.decode(signedPayload: payload, endpoint: environment, via: .history)
                    if case .stored = try await store.notifications.receive(incoming) { recovered += 1 }
                }
                guard answer.value.hasMore, let next = answer.value.paginationToken else {
                    try await store.setServiceState(key, String(now))
                    return (now + settings.interval, recovered)
                }
                token = next
            }
        }
        throw Failed(description: "Get Notification History (\(app), \(environment.rawValue)): more than \(settings.maxPages) pages")
    }
}
