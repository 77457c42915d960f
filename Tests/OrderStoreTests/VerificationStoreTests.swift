import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// R1–R6 through the store, on both backends.
@Suite("Verification rules in the store")
struct VerificationStoreTests {
    @Test("R1: the receipt is stored before Apple is asked; an outage loses nothing", arguments: Backend.all)
    func storeFirst(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1")
            var detail = try await store.orders.detail("o1")
            #expect(detail.order.state == .receiptReceived)
            #expect(detail.submissions.map(\.receiptData) == ["receipt-of-o1"])
            // Apple is down: the order waits, the receipt stays.
            let outcome = try await store.apple.apply(orderId: "o1", submissionId: submission, report: outage, at: t0 + 5000)
            #expect(outcome.order.state == .verifyRetry)
            detail = try await store.orders.detail("o1")
            #expect(detail.submissions.count == 1)
            #expect(detail.attempts.map(\.outcome) == [.retryable])
        }
    }

    @Test("R1: an empty receipt is refused with a clear error and the order is untouched", arguments: Backend.all)
    func emptyReceipt(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.orders.place(orderId: "o1", accountId: "a1", productId: "coins_60", at: t0)
            await #expect(throws: StoreError.emptyReceipt(orderId: "o1")) {
                try await store.orders.submit(orderId: "o1", receiptData: "")
            }
            #expect(try await store.orders.find("o1")?.state == .pendingPayment)
        }
    }

    @Test("Happy path: valid receipt → verified → delivered with one automatic grant", arguments: Backend.all)
    func delivers(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1")
            let outcome = try await store.apple.apply(
                orderId: "o1", submissionId: submission, report: validReport([tx("1000", at: t0 + 500)]), at: t0 + 3000)
            #expect(outcome.order.state == .delivered)
            #expect(outcome.order.transactionId == "1000")
            #expect(outcome.checks.allSatisfy { $0.passed })
            let detail = try await store.orders.detail("o1")
            #expect(detail.grants.count == 1)
            #expect(detail.grants.first?.kind == .automatic)
            #expect(detail.audit.map(\.action) == [.receiptReceived, .verifyValid, .deliver])
        }
    }

    @Test("R2: a sandbox purchase in a production store is delivered but flagged and counted apart", arguments: Backend.all)
    func sandboxInProduction(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("review", account: "app-review")
            let outcome = try await store.apple.apply(
                orderId: "review", submissionId: submission,
                report: validReport([tx("1", at: t0 + 500)], environment: .sandbox), at: t0 + 3000)
            #expect(outcome.flaggedSandbox)
            #expect(outcome.order.state == .delivered)
            #expect(outcome.order.environment == .sandbox)
            #expect(try await store.orders.page(OrderFilter(environment: .sandbox)).items.map(\.orderId) == ["review"])
            #expect(try await store.orders.page(OrderFilter(environment: .production)).items.isEmpty)
            #expect(try await store.reports.counts().sandboxInProduction == 1)
            #expect(try await store.orders.detail("review").attempts.last?.verdict?.sandboxInProduction == true)
        }
    }

    @Test("R3: a final status rejects with Apple's meaning; a retryable one waits", arguments: Backend.all)
    func finalAndRetryable(backend: Backend) async throws {
        try await withStore(backend) { store in
            let s1 = try await store.paidOrder("o1", account: "a1")
            let rejected = try await store.apple.apply(orderId: "o1", submissionId: s1, report: statusReport(21010), at: t0 + 3000)
            #expect(rejected.order.state == .rejected)
            #expect(rejected.order.lastError == "21010 user account not found or deleted")
            let s2 = try await store.paidOrder("o2", account: "a1")
            let waiting = try await store.apple.apply(orderId: "o2", submissionId: s2, report: statusReport(21104, retryable: true), at: t0 + 3000)
            #expect(waiting.order.state == .verifyRetry)
            let attempts = try await store.orders.detail("o2").attempts
            #expect(attempts.first?.appleStatus == 21104)
            #expect(attempts.first?.statusMeaning == "internal data access error (21104)")
        }
    }

    @Test("R4: a 21005 storm keeps the order in verify_retry on schedule, never rejected", arguments: Backend.all)
    func storm(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1")
            var now = t0 + 2000
            var nextRetries: [Millis] = []
            for _ in 0..<7 {
                let outcome = try await store.apple.apply(orderId: "o1", submissionId: submission, report: statusReport(21005), at: now)
                #expect(outcome.order.state == .verifyRetry)
                let next = try #require(outcome.order.nextRetryAt)
                nextRetries.append(next - now)
                now = next
            }
            #expect(nextRetries == [.seconds(10), .seconds(30), .minutes(2), .minutes(10), .minutes(30), .hours(1), .hours(1)])
            #expect(try await store.apple.dueForRetry(now: now) == ["o1"])
            #expect(try await store.apple.dueForRetry(now: now - 1).isEmpty)
        }
    }

    @Test("R4: after 72 h of failures the order stays stuck and needs an operator", arguments: Backend.all)
    func exhaustion(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1")
            _ = try await store.apple.apply(orderId: "o1", submissionId: submission, report: outage, at: t0 + 2000)
            let last = try await store.apple.apply(orderId: "o1", submissionId: submission, report: outage, at: t0 + .hours(72))
            #expect(last.order.state == .verifyRetry)
            #expect(last.order.needsOperator)
            #expect(last.order.nextRetryAt == nil)
            let stuck = try await store.reports.stuck(now: t0 + .hours(72)).items
            #expect(stuck.map(\.order.orderId) == ["o1"])
            #expect(stuck.first?.attempts == 2)
        }
    }

    @Test("R5: a valid receipt that fails a check is rejected with the check's reason", arguments: Backend.all)
    func failedCheckRejects(backend: Backend) async throws {
        try await withStore(backend) { store in
            let cases: [(String, VerificationReport, String)] = [
                ("bundle", validReport([tx("1", at: t0 + 500)], bundle: "com.resigned.copy"), "bundle id"),
                ("quantity", validReport([tx("3", at: t0 + 500, quantity: 3)]), "quantity"),
                ("early", validReport([tx("4", at: t0 - .hours(1))]), "purchased after order"),
                ("token", validReport([tx("5", at: t0 + 500, token: "another-order")]), "account token"),
            ]
            for (id, report, check) in cases {
                let submission = try await store.paidOrder(id, account: "a1")
                let outcome = try await store.apple.apply(orderId: id, submissionId: submission, report: report, at: t0 + 3000)
                #expect(outcome.order.state == .rejected, "\(id)")
                #expect(outcome.order.lastError?.hasPrefix("check failed: \(check)") == true, "\(id): \(outcome.order.lastError ?? "-")")
                #expect(try await store.orders.detail(id).grants.isEmpty)
            }
        }
    }

    @Test("R5: a valid receipt holding no transaction for the order proves nothing: it waits for an operator, never rejected", arguments: Backend.all)
    func noTransactionWaits(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1")
            // Seed 003: finished consumables leave the receipt; Apple answers 0 with an empty in_app.
            let outcome = try await store.apple.apply(orderId: "o1", submissionId: submission, report: validReport([]), at: t0 + 3000)
            #expect(outcome.order.state == .verifyRetry)
            #expect(outcome.order.needsOperator)
            #expect(outcome.order.nextRetryAt == t0 + 3000 + .seconds(10))
            #expect(outcome.order.lastError?.contains("no transaction for this order") == true)
            #expect(outcome.order.reason == .noTransactionForOrder)
        }
    }

    @Test("R3: our configuration errors and Apple's internal errors keep a paid order waiting, flagged, never rejected", arguments: Backend.all)
    func configurationWaits(backend: Backend) async throws {
        try await withStore(backend) { store in
            var noSecret = statusReport(21003)
            noSecret.sharedSecretSent = false
            let cases: [(String, VerificationReport, OrderReason)] = [
                ("secret", statusReport(21004), .sharedSecretRejected), ("unreadable", statusReport(21000), .requestUnreadable),
                ("no-secret", noSecret, .sharedSecretMissing), ("internal", statusReport(21150, retryable: false), .appleNotRetryable(21150)),
                ("unknown", statusReport(21777), .undocumentedStatus(21777)),
                ("key", VerificationReport(environment: .production, appleStatus: nil, httpStatus: 401), .credentialsRefused(.appStore)),
                (
                    "notfound", VerificationReport(method: .serverAPI, environment: .sandbox, appleStatus: 4_040_010, httpStatus: 404),
                    .serverAPIRefused(4_040_010)
                ),
            ]
            for (id, report, reason) in cases {
                let submission = try await store.paidOrder(id, account: "a1")
                let outcome = try await store.apple.apply(orderId: id, submissionId: submission, report: report, at: t0 + 3000)
                #expect(outcome.order.state == .verifyRetry, "\(id)")
                #expect(outcome.order.needsOperator, "\(id)")
                #expect(outcome.order.nextRetryAt != nil, "\(id): the retries go on, so fixing the configuration is enough")
                #expect(outcome.order.reason == reason, "\(id)")
                #expect(try await store.orders.detail(id).order.reason == reason, "\(id): the code is stored")
            }
            let waiting = try await store.reports.operatorAlerts(limit: 10)
            #expect(waiting.first { $0.reason == .sharedSecretRejected }?.orders == 1, "grouped by the reason's code: \(waiting)")
            #expect(waiting.first { $0.reason == .sharedSecretRejected }?.banner.contains("shared_secret_file") == true, "the banner says what to fix")
            #expect(waiting.reduce(0) { $0 + $1.orders } == cases.count)
            #expect(Set(waiting.map(\.reason)) == Set(cases.map(\.2)), "one alert per reason code")
        }
    }

    @Test("R3: an admin re-verifies a rejected order once the configuration is fixed; support may not", arguments: Backend.all)
    func adminReopens(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1")
            _ = try await store.apple.apply(orderId: "o1", submissionId: submission, report: statusReport(21010), at: t0 + 3000)
            let rejected = try await store.orders.detail("o1").order
            #expect(rejected.state == .rejected)
            #expect(OrderPermissions.reverifyRefusal(rejected, role: .support) == .forbidden(action: .reverifyRejectedOrder, role: .support))
            #expect(rejected.reason == .appleStatus(21010))
            #expect(try await store.apple.rejectedOrders(reason: .appleStatus(21010)) == ["o1"])
            #expect(try await store.apple.rejectedOrders(reason: .appleStatus(21003)).isEmpty)
            // Without reopen (not an admin's word) the answer is recorded but decides nothing.
            let ignored = try await store.apple.apply(
                orderId: "o1", submissionId: submission, report: validReport([tx("1", at: t0 + 100)]), at: t0 + 4000)
            #expect(ignored.order.state == .rejected)
            let reopened = try await store.apple.apply(
                orderId: "o1", submissionId: submission, report: validReport([tx("1", at: t0 + 100)]), reopen: true, at: t0 + 5000)
            #expect(reopened.order.state == .delivered)
        }
    }

    @Test("Each attempt keeps the store's verdict: the pick, every check, the outcome", arguments: Backend.all)
    func verdictStored(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1")
            _ = try await store.apple.apply(orderId: "o1", submissionId: submission, report: validReport([tx("7", at: t0 - .hours(1))]), at: t0 + 3000)
            let verdict = try #require(try await store.orders.detail("o1").attempts.last?.verdict)
            #expect(verdict.outcome == .checkFailed)
            #expect(verdict.pickedTransactionId == "7")
            #expect(verdict.orderState == .rejected)
            #expect(verdict.checks.first { !$0.passed }?.name == .purchaseAfterOrder)
        }
    }

    @Test("R5: the wrong product named by the client's transaction id is rejected", arguments: Backend.all)
    func claimedWrongProduct(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1", claimed: "77")
            let outcome = try await store.apple.apply(
                orderId: "o1", submissionId: submission,
                report: validReport([tx("77", product: "no_ads", at: t0 + 500)]), at: t0 + 3000)
            #expect(outcome.order.lastError == "check failed: product id: no_ads ≠ coins_60")
        }
    }

    @Test("R6: without a transaction id the latest purchase is taken from unsorted arrays", arguments: Backend.all)
    func picksLatest(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1")
            let report = validReport(
                [tx("30", at: t0 + 900), tx("10", at: t0 - .days(3)), tx("20", at: t0 + 100)],
                latest: [tx("30", at: t0 + 900), tx("v1", product: "vip_monthly", at: t0 + 999)])
            let outcome = try await store.apple.apply(orderId: "o1", submissionId: submission, report: report, at: t0 + 3000)
            #expect(outcome.order.transactionId == "30")
            #expect(outcome.order.state == .delivered)
            // The others were stored; those no order claims are orphans.
            #expect(try await store.orders.orphans().map(\.transaction.transactionId).sorted() == ["10", "20", "v1"])
        }
    }
}
