import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// Seed 003's polling, as the store chooses what to poll.
@Suite("Polling subscriptions near expiry")
struct ExpiryPollingStoreTests {
    /// A delivered monthly subscription bought at t0 whose period ends at `end`.
    private func subscribe(_ store: OrderStore, _ otid: String, ends end: Millis) async throws {
        let submission = try await store.paidOrder("o-\(otid)", account: "acct-\(otid)", product: "vip_monthly")
        let report = validReport(
            [], latest: [tx(otid, product: "vip_monthly", at: t0 + 500, expires: end)],
            renewals: [AppleRenewalInfo(originalTransactionId: otid, productId: "vip_monthly", autoRenewEnabled: true)])
        #expect(try await store.apple.apply(orderId: "o-\(otid)", submissionId: submission, report: report, at: t0 + 2000).order.state == .delivered)
    }

    @Test(
        "Owed a check: periods ending within a day ahead or three days behind, not checked for six hours, not already owed; far ones are left alone",
        arguments: Backend.all)
    func choosesNearExpiry(backend: Backend) async throws {
        try await withStore(backend) { store in
            let now = t0 + .days(10)
            try await subscribe(store, "1001", ends: now + .hours(2))
            try await subscribe(store, "1002", ends: now + .days(20))
            try await subscribe(store, "1003", ends: now - .days(1))
            try await subscribe(store, "1004", ends: now - .days(5))
            let polling = ExpiryPolling()
            #expect(try await store.subscriptions.scheduleExpiryChecks(polling, now: now) == 2)
            #expect(try await store.jobs.job(.subscriptionCheck(originalTransactionId: "1001")) != nil)
            #expect(try await store.jobs.job(.subscriptionCheck(originalTransactionId: "1003")) != nil)
            #expect(try await store.jobs.job(.subscriptionCheck(originalTransactionId: "1002")) == nil)
            #expect(try await store.jobs.job(.subscriptionCheck(originalTransactionId: "1004")) == nil)
            #expect(try await store.subscriptions.scheduleExpiryChecks(polling, now: now + 1) == 0, "owed already: not owed twice")

            // Apple told us about 1001 an hour ago (a notification, another poll): not yet again.
            try await subscribe(store, "1005", ends: now + .hours(3))
            let recent = validReport([], latest: [tx("1005", product: "vip_monthly", at: t0 + 500, expires: now + .hours(3))])
            _ = try await store.apple.apply(orderId: "o-1005", submissionId: nil, report: recent, at: now - .hours(1))
            #expect(try await store.subscriptions.scheduleExpiryChecks(polling, now: now + 2) == 0)
            #expect(try await store.subscriptions.scheduleExpiryChecks(polling, now: now + .hours(6)) == 1, "six hours on, it is polled")
        }
    }
}
