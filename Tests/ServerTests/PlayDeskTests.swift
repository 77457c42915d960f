import Foundation
import GooglePlay
import GooglePlaySimulator
import OrderDomain
import OrderStore
import Presentation
import SimulatorFaults
import TestSupport
import Testing

/// One desk for both stores, as support meets an Android player's ticket: the order found by
/// whatever the player or the game has (Google's `GPA.…` order id and its renewals' suffixes,
/// the purchase token, the obfuscated account id the game set), the order list narrowed to one
/// store, and the order page saying what Google reports (state, acknowledgement and its
/// deadline, consumption, test purchase, region, the game's ids). Purchases go through
/// `serve` and the Google Play simulator over loopback, as in life.
@Suite("Desk: Google Play orders found by any id, listed by store, read as Google reports them", .serialized)
struct PlayDeskTests {
    /// The player pays at Google, the game submits the token for `order`, and the order
    /// reaches `state` (delivered, or waiting when Google cannot answer).
    @discardableResult
    static func bought(
        _ serve: IntakeTests.Running, order: String, account: String, product: String = "coins_300", profile: String? = nil, test: Bool = false,
        pending: Bool = false, consume: Bool = false, reaching state: String = "delivered"
    ) async throws -> PlayPurchase {
        let play = try GooglePlayPipelineTests.play(serve)
        let purchase = try await play.purchaseAndNotify(productId: product, account: account, profile: profile, pending: pending, test: test)
        _ = try await GooglePlayPipelineTests.submit(serve, order: order, account: account, product: product, token: purchase.token, consume: consume)
        _ = try await IntakeTests.waitFor(state, order: order, in: serve)
        return purchase
    }

    static func words(_ sections: [DetailSection]) -> String { sections.flatMap(\.lines).map { "\($0.label ?? "") \($0.text)" }.joined(separator: "\n") }

    @Test("Found by GPA id (and by its prefix), purchase token, obfuscated account id; a waiting order by its token", arguments: Backend.all)
    func findByGoogleIds(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "coins_300", account: "obf-7f3a", profile: "hero-2")
            _ = try await GooglePlayPipelineTests.submit(serve, order: "gp-find", account: "player-7", product: "coins_300", token: bought.token)
            _ = try await IntakeTests.waitFor("delivered", order: "gp-find", in: serve)
            let orders = serve.store.orders
            let gpa = try #require(bought.orderId)
            #expect(try await orders.lookup(gpa).map(\.orderId) == ["gp-find"], "Google's order id from the receipt email")
            #expect(try await orders.search(String(gpa.prefix(14))).map(\.orderId).contains("gp-find"), "a GPA id typed in part")
            #expect(try await orders.lookup(bought.token).map(\.orderId) == ["gp-find"], "the purchase token the game server logged")
            #expect(try await orders.lookup("obf-7f3a").map(\.orderId) == ["gp-find"], "the obfuscated account id the game set")
            #expect(try await orders.lookup("obf-7f3a", kind: .purchaseToken).isEmpty, "token: looks at tokens only")

            // Still waiting for Google (a slow payment method): found by its token all the same.
            let pending = try await play.purchaseAndNotify(productId: "coins_300", account: "obf-7f3a", pending: true)
            _ = try await GooglePlayPipelineTests.submit(serve, order: "gp-wait", account: "player-7", product: "coins_300", token: pending.token)
            _ = try await IntakeTests.waitFor("verify_retry", order: "gp-wait", in: serve)
            #expect(try await orders.lookup(pending.token).map(\.orderId) == ["gp-wait"])
            #expect(try await orders.lookup("no-such-token-or-id").isEmpty)
        }
    }

    @Test("The order list narrows to one store, alone or with a state; the STORE column appears where Play's orders are", arguments: Backend.all)
    func listByStore(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            try await Self.bought(serve, order: "gp-1", account: "p-1")
            #expect(try await serve.callAsGame(.POST, "/v1/orders", json: #"{"order_id":"ap-1","account_id":"p-1","product_id":"coins_300"}"#).status == 201)
            let orders = serve.store.orders
            #expect(try await orders.page(OrderFilter(marketplace: .googlePlay)).items.map(\.orderId) == ["gp-1"])
            #expect(try await orders.page(OrderFilter(marketplace: .appStore)).items.map(\.orderId) == ["ap-1"])
            #expect(try await orders.page(OrderFilter(state: .delivered, marketplace: .googlePlay)).items.map(\.orderId) == ["gp-1"])
            #expect(try await orders.page(OrderFilter(state: .delivered, marketplace: .appStore)).items.isEmpty)
            await #expect(throws: StoreError.self, "store and env need a third narrowing") {
                try await orders.page(OrderFilter(environment: .production, marketplace: .googlePlay))
            }

            let both = try await orders.page().items
            let listing = OrderListings.orders(storeIsProduction: true, for: both)
            let store = try #require(listing.columns.first { $0.title == "STORE" })
            #expect(both.map { store.cell($0).text } == ["Apple", "Play"], "newest first: the Apple order placed last")
            // The player moved from iPhone to Android: the account screen says each order's store.
            let sections = AccountPresentation.sections(try await serve.store.accounts.detail("p-1"), storeIsProduction: true)
            let account = PlayDeskTests.words(sections)
            #expect(sections.contains { $0.heading == "Orders (2), App Store and Google Play" }, "\(sections.map(\.heading))")
            #expect(account.contains("Play   delivered") && account.contains("Apple  pending_payment"), "\(account)")
            let appleOnly = try await orders.page(OrderFilter(marketplace: .appStore)).items
            #expect(!OrderListings.orders(storeIsProduction: true, for: appleOnly).columns.contains { $0.title == "STORE" }, "an Apple-only list as before")
        }
    }

    @Test(
        "The order page reads a Play purchase as Google reports it: acknowledged, consumed, test, region, the game's ids; a deadline and time left while owed",
        arguments: Backend.all)
    func orderPage(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "coins_300", account: "obf-1", profile: "hero-1", test: true)
            _ = try await GooglePlayPipelineTests.submit(serve, order: "gp-page", account: "p-1", product: "coins_300", token: bought.token, consume: true)
            _ = try await IntakeTests.waitFor("delivered", order: "gp-page", in: serve)
            #expect(try await eventually { try await serve.store.googlePlay.purchase(token: bought.token)?.consumedAt != nil })
            let detail = try await serve.store.orders.detail("gp-page")
            let page = Self.words(OrderDetailPresentation.sections(detail, storeIsProduction: true))
            for shown in [
                "store Google Play", "token \(bought.token)", "Google order \(bought.orderId ?? "?")", "state purchased", "acknowledged yes at",
                "consumed yes at", "TEST purchase", "region CN", "account obf-1 · profile hero-1",
            ] {
                #expect(page.contains(shown), "\(shown) in:\n\(page)")
            }

            // Owed: paid, kept, not yet acknowledged (no order delivered it): the deadline, and the time left.
            var owed = try #require(detail.playPurchases.first)
            owed.facts.acknowledged = false
            owed.acknowledgedAt = nil
            owed.acknowledgeBy = try #require(owed.facts.purchaseTime) + PlayPurchaseFacts.acknowledgeWithin
            let now = owed.acknowledgeBy.map { $0 - .hours(5) } ?? 0
            var pending = detail
            pending.playPurchases = [owed]
            let owedPage = Self.words(OrderDetailPresentation.sections(pending, storeIsProduction: true, now: now))
            #expect(owedPage.contains("NO — Google refunds it unless acknowledged by") && owedPage.contains("(5h0m left)"), "\(owedPage)")

            // An App Store order's page says nothing of Google.
            #expect(try await serve.callAsGame(.POST, "/v1/orders", json: #"{"order_id":"ap-page","account_id":"p-1","product_id":"coins_300"}"#).status == 201)
            let apple = Self.words(OrderDetailPresentation.sections(try await serve.store.orders.detail("ap-page"), storeIsProduction: true))
            #expect(!apple.contains("Google") && !apple.contains("store "), "\(apple)")
        }
    }

    @Test(
        "Acknowledge now: the owed list shows the order, its deadline and time left; a viewer may not; Google's refusal is said as Google said it and changes nothing; then acknowledged once, audited with the reason",
        arguments: Backend.all)
    func acknowledgeNow(backend: Backend) async throws {
        // The worker does everything but acknowledge: the purchase stays owed, as when Google
        // refused the worker's tries.
        try await IntakeTests.withServe(backend, googlePlay: true, worker: { $0.kinds = JobKind.allCases.filter { $0 != .playAcknowledge } }) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let google = try #require(serve.playClient)
            let store = serve.store.googlePlay
            let bought = try await Self.bought(serve, order: "gp-ack", account: "p-ack")
            // Google told of a second purchase no order has submitted yet.
            let told = try await play.purchaseAndNotify(productId: "coins_300", account: "p-other")
            #expect(try await eventually { try await store.owedAcknowledgements().count == 2 })
            let owed = try await store.owedAcknowledgements()
            let mine = try #require(owed.first { $0.purchase.facts.purchaseToken == bought.token })
            #expect(mine.orderId == "gp-ack" && owed.first { $0.purchase.facts.purchaseToken == told.token }?.orderId == nil)
            let deadline = try #require(mine.purchase.acknowledgeBy)
            #expect(deadline == (mine.purchase.facts.purchaseTime ?? 0) + PlayPurchaseFacts.acknowledgeWithin)
            let listing = QueueListings.acknowledgements(now: deadline - .hours(5))
            let left = try #require(listing.columns.first { $0.title == "LEFT" })
            #expect(left.cell(mine).text == "5h0m" && left.cell(mine).tone == .alert, "under a day left is an alert")

            let viewer = Operator(name: "vic", role: .viewer)
            await #expect(throws: StoreError.self) {
                try await store.acknowledge(purchaseToken: bought.token, by: viewer, reason: "ticket 1") { await google.acknowledgeRefusal($0) }
            }
            let support = Operator(name: "sam", role: .support)
            #expect(
                try await store.acknowledge(purchaseToken: told.token, by: support, reason: "ticket 2") { await google.acknowledgeRefusal($0) } == .notDelivered
            )

            await play.faults.set(FaultProfile(faults: [.init(.http(503))]))
            let refused = try await store.acknowledge(purchaseToken: bought.token, by: support, reason: "ticket 3") { await google.acknowledgeRefusal($0) }
            guard case .failed(let words) = refused else {
                Issue.record("Google's 503 is a refusal, not \(refused)")
                return
            }
            #expect(words.contains("503"), "as Google said it: \(words)")
            #expect(await play.ledger.purchase(token: bought.token)?.acknowledged == false)
            #expect(try await store.owedAcknowledgements().contains { $0.orderId == "gp-ack" }, "still owed")

            await play.faults.set(FaultProfile())
            let done = try await store.acknowledge(purchaseToken: bought.token, by: support, reason: "ticket 3") { await google.acknowledgeRefusal($0) }
            guard case .acknowledged = done else {
                Issue.record("acknowledged, not \(done)")
                return
            }
            #expect(await play.ledger.purchase(token: bought.token)?.acknowledged == true, "Google has it")
            #expect(try await store.owedAcknowledgements().map(\.orderId) == [nil], "only the purchase no order holds is left")
            #expect(try await store.acknowledge(purchaseToken: bought.token, by: support, reason: "again") { _ in "never asked" } == .alreadyDone)
            let entries = try await serve.store.audit.entries(limit: 50).filter { $0.action == .googleAcknowledged }
            #expect(entries.count == 1 && entries.first?.actor == "sam" && entries.first?.reason == "ticket 3", "\(entries)")
        }
    }

    @Test(
        "A GPA id the store never learned (Google answered 503 when the game submitted it) is asked of Google's Orders API and leads to the waiting order; a purchase no order submitted is unclaimed; unknown and unanswered are said",
        arguments: Backend.all)
    func unknownGoogleOrderId(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let google = try #require(serve.playClient)
            let orders = serve.store.orders
            await play.faults.set(FaultProfile(faults: [.init(.http(503))]))
            let paid = try await Self.bought(serve, order: "gp-gpa", account: "p-gpa", reaching: "verify_retry")
            let gpa = try #require(paid.orderId)
            #expect(try await orders.lookup(gpa).isEmpty, "the store never heard Google's order id")
            #expect(
                try await orders.findGoogleOrder(gpa) { await google.googleOrder($0) } == .failed("Google HTTP 503: an answer that is not Google's error JSON"))
            await play.faults.set(FaultProfile())

            guard case .orders(let found, let token) = try await orders.findGoogleOrder(gpa, asking: { await google.googleOrder($0) }) else {
                Issue.record("the waiting order")
                return
            }
            #expect(found.map(\.orderId) == ["gp-gpa"] && token == paid.token)
            let summary = GoogleOrderWords.summary(.orders(found, purchaseToken: token), id: gpa)
            #expect(summary.text.contains("gp-gpa (verify_retry)") && !summary.isError, "\(summary)")

            let never = try await play.purchaseAndNotify(productId: "coins_60", account: "p-lost")
            let unclaimed = try await orders.findGoogleOrder(try #require(never.orderId)) { await google.googleOrder($0) }
            #expect(
                unclaimed == .unclaimed(purchaseToken: never.token, productId: "coins_60", state: "PROCESSED", package: GooglePlayPipelineTests.package),
                "\(unclaimed)")
            let next = try #require(GoogleOrderWords.nextStep(unclaimed), "a purchase no order holds is attached")
            #expect(next.contains("A in the console") && next.contains("iapdesk google attach \(never.token) --package \(GooglePlayPipelineTests.package)"))
            #expect(GoogleOrderWords.summary(unclaimed, id: try #require(never.orderId)).isError)
            #expect(try await orders.findGoogleOrder("GPA.9999-9999-9999-99999") { await google.googleOrder($0) } == .notFound)
            #expect(Orders.looksLikeGoogleOrderId(gpa + "..3") && !Orders.looksLikeGoogleOrderId("GPA.x") && !Orders.looksLikeGoogleOrderId("MKX1234567"))
        }
    }

    @Test(
        "Refund at Google: with revoke, Google's voided notice takes the coins back here and tells the game (R9); without, the order stays delivered; a refusal is said as Google said it and audits nothing; an App Store order is refused",
        arguments: Backend.all)
    func refundAtGoogle(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let google = try #require(serve.playClient)
            let support = Operator(name: "sam", role: .support)
            let tell: @Sendable (String, String, Bool) async -> String? = { await google.refundRefusal(package: $0, orderId: $1, revoke: $2) }
            for (order, account) in [("gp-refund", "p-r1"), ("gp-keep", "p-r2")] {
                try await Self.bought(serve, order: order, account: account)
            }
            let googlePlay = serve.store.googlePlay

            await play.faults.set(FaultProfile(faults: [.init(.http(500))]))
            let refused = try await googlePlay.refund(orderId: "gp-refund", revoke: true, by: support, reason: "ticket 9", tell: tell)
            #expect(refused?.contains("500") == true, "as Google said it: \(String(describing: refused))")
            await play.faults.set(FaultProfile())
            #expect(try await serve.store.audit.entries(limit: 100).filter { $0.action == .googleRefund }.isEmpty, "a refusal audits nothing")

            #expect(try await googlePlay.refund(orderId: "gp-refund", revoke: true, by: support, reason: "ticket 9: charged twice", tell: tell) == nil)
            let refunded = try await IntakeTests.waitFor("refunded", order: "gp-refund", in: serve, seconds: 20)
            #expect(refunded["state"] as? String == "refunded", "Google's voided notice applied R9")
            let detail = try await serve.store.orders.detail("gp-refund")
            #expect(detail.grants.count == 1 && detail.grants.first?.revokedAt != nil, "the coins taken back, once")
            #expect(
                try await eventually {
                    try await GooglePlayPipelineTests.events(serve, order: "gp-refund").map { $0["type"] as? String } == ["delivered", "refunded"]
                },
                "the game is told")

            #expect(try await googlePlay.refund(orderId: "gp-keep", revoke: false, by: support, reason: "goodwill", tell: tell) == nil)
            let kept = try #require(try await serve.store.orders.find("gp-keep")?.transactionId)
            // Google took the refund and voided nothing, so it has nothing to tell.
            let (refundedAtGoogle, voidedAtGoogle) = (await play.ledger.developerRefunds[kept], await play.ledger.voided)
            #expect(refundedAtGoogle != nil && !voidedAtGoogle.contains { $0.orderId == kept })
            #expect(try await serve.store.orders.find("gp-keep")?.state == .delivered, "the money back, the purchase kept")
            let audited = try await serve.store.audit.entries(limit: 100).filter { $0.action == .googleRefund }
            #expect(audited.count == 2 && audited.allSatisfy { $0.actor == "sam" }, "\(audited)")

            #expect(try await serve.callAsGame(.POST, "/v1/orders", json: #"{"order_id":"ap-r","account_id":"p-r1","product_id":"coins_300"}"#).status == 201)
            await #expect(throws: StoreError.notPaidIn(.googlePlay, id: "order ap-r")) {
                _ = try await googlePlay.refund(orderId: "ap-r", revoke: true, by: support, reason: "x", tell: tell)
            }
            await #expect(throws: StoreError.self) {
                _ = try await googlePlay.refund(orderId: "gp-keep", revoke: true, by: Operator(name: "v", role: .viewer), reason: "x", tell: tell)
            }
        }
    }

    @Test(
        "Defer a Play subscription's renewal at Google: admins only; Google's new end kept and the game told; out of range or ended refused before Google is asked; Google's refusal said, nothing changed",
        arguments: Backend.all)
    func deferAtGoogle(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let google = try #require(serve.playClient)
            let tell: @Sendable (String, String, Int64) async -> PlayDeferAnswer = { await google.deferAnswer(package: $0, purchaseToken: $1, seconds: $2) }
            let bought = try await Self.bought(serve, order: "gp-def", account: "p-def", product: "vip_monthly")
            let otid = try #require(try await serve.store.orders.find("gp-def")?.originalTransactionId)
            let before = try #require(try await serve.store.subscriptions.detail(otid).subscription?.expiresAt)
            let eventsBefore = try await GooglePlayPipelineTests.events(serve, order: "gp-def").count
            let (admin, support) = (Operator(name: "ada", role: .admin), Operator(name: "sam", role: .support))
            let googlePlay = serve.store.googlePlay

            await #expect(throws: StoreError.self, "admins only, as Apple's extensions") {
                _ = try await googlePlay.deferRenewal(originalTransactionId: otid, days: 7, by: support, reason: "ticket", tell: tell)
            }
            await #expect(throws: StoreError.deferRefused(originalTransactionId: otid, .days(0, max: 365))) {
                _ = try await googlePlay.deferRenewal(originalTransactionId: otid, days: 0, by: admin, reason: "ticket", tell: tell)
            }
            await play.faults.set(FaultProfile(faults: [.init(.http(500))]))
            guard case .refused(let why) = try await googlePlay.deferRenewal(originalTransactionId: otid, days: 7, by: admin, reason: "t", tell: tell) else {
                Issue.record("Google's 500 is a refusal")
                return
            }
            #expect(why.contains("500"), "\(why)")
            await play.faults.set(FaultProfile())
            #expect(try await serve.store.subscriptions.detail(otid).subscription?.expiresAt == before, "a refusal changes nothing")

            let answer = try await googlePlay.deferRenewal(originalTransactionId: otid, days: 7, by: admin, reason: "ticket 12: outage week", tell: tell)
            #expect(answer == .deferred(newExpiry: before + .days(7)), "\(answer)")
            #expect(try await serve.store.subscriptions.detail(otid).subscription?.expiresAt == before + .days(7), "Google's new end kept")
            let atGoogle = await play.ledger.purchase(token: bought.token)?.expiryTime.map { Millis(($0.timeIntervalSince1970 * 1000).rounded()) }
            #expect(atGoogle == before + .days(7))
            #expect(try await eventually { try await GooglePlayPipelineTests.events(serve, order: "gp-def").count == eventsBefore + 1 }, "the game is told")
            let audited = try await serve.store.audit.entries(limit: 100).filter { $0.action == .googleDeferred }
            #expect(audited.count == 1 && audited.first?.reason == "ticket 12: outage week")
        }
    }

    @Test(
        "A deferral that meets a change at Google between reading the subscription and deferring it (409: its etag moved) is asked again against the new etag, and the period is extended once"
    )
    func deferMeetsAChange() async throws {
        try await IntakeTests.withServe(.sqlite, googlePlay: true) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let google = try #require(serve.playClient)
            let bought = try await Self.bought(serve, order: "gp-409", account: "p-409", product: "vip_monthly")
            #expect(try await eventually { await play.ledger.purchase(token: bought.token)?.acknowledged == true }, "the worker is done with it")
            let end = try #require(await play.ledger.purchase(token: bought.token)?.expiryTime)
            let otid = try #require(try await serve.store.orders.find("gp-409")?.originalTransactionId)
            let before = try #require(try await serve.store.subscriptions.detail(otid).subscription?.expiresAt, "the end as Google said it")
            // Every answer of Google's takes 3 s: the read is answered at 3 s, the deferral
            // that follows at 6 s; the subscription changes at 4.5 s, in between.
            await play.faults.set(FaultProfile(latency: 3...3))
            let started = ContinuousClock.now
            let asked = Task { await google.deferAnswer(package: GooglePlayPipelineTests.package, purchaseToken: bought.token, seconds: 7 * 86_400) }
            try await Task.sleep(for: .milliseconds(4_500))
            _ = try await play.ledger.setState(bought.token, .active)
            let answer = await asked.value
            let took = ContinuousClock.now - started
            await play.faults.set(FaultProfile())
            #expect(answer == .deferred(newExpiry: before + .days(7)), "\(answer)")
            #expect(took >= .seconds(11), "read, deferral (409), read again, deferral: four answers of 3 s, took \(took)")
            #expect(await play.ledger.purchase(token: bought.token)?.expiryTime == end.addingTimeInterval(7 * 86_400), "extended once")
        }
    }

    @Test(
        "Attach a Google purchase the game never submitted (the Orders API named its token) to the order it paid: verified with Google, delivered once, audited; attached again to another order it is a replay (R7)",
        arguments: Backend.all)
    func attachUnclaimed(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let google = try #require(serve.playClient)
            let verifier = PlayVerifier(client: google)
            let verify: @Sendable (PurchaseEvidence) async -> VerificationReport = { await verifier.verify($0, claimedTransactionId: nil) }
            let lost = try await play.purchaseAndNotify(productId: "coins_60", account: "p-lost")
            for order in ["gp-lost", "gp-other"] {
                let placed = try await serve.callAsGame(.POST, "/v1/orders", json: #"{"order_id":"\#(order)","account_id":"p-lost","product_id":"coins_60"}"#)
                #expect(placed.status == 201)
            }
            let found = try await serve.store.orders.findGoogleOrder(try #require(lost.orderId)) { await google.googleOrder($0) }
            guard case .unclaimed(let token, _, _, _) = found else {
                Issue.record("the game never submitted it: \(found)")
                return
            }
            let googlePlay = serve.store.googlePlay
            await #expect(throws: StoreError.self) {
                _ = try await googlePlay.attach(
                    purchaseToken: token, package: GooglePlayPipelineTests.package, to: "gp-lost", by: Operator(name: "v", role: .viewer), reason: "x",
                    verify: verify)
            }
            let support = Operator(name: "sam", role: .support)
            let attached = try await googlePlay.attach(
                purchaseToken: token, package: GooglePlayPipelineTests.package, to: "gp-lost", by: support, reason: "ticket 21: paid, never arrived",
                verify: verify)
            #expect(attached.order.state == .delivered && attached.order.transactionId == lost.orderId, "\(attached.order)")
            #expect(try await eventually { try await GooglePlayPipelineTests.events(serve, order: "gp-lost").map { $0["type"] as? String } == ["delivered"] })
            #expect(try await serve.store.audit.entries(limit: 100).contains { $0.action == .googleAttach && $0.reason == "ticket 21: paid, never arrived" })

            // The App Store's attach (`:orphans`, `orphan attach`) refuses Google's purchase: it is attached through Google.
            let gpa = try #require(lost.orderId)
            let other = try #require(try await serve.store.orders.find("gp-other"))
            await #expect(throws: StoreError.notPaidIn(.appStore, id: "transaction \(gpa)")) {
                try await serve.store.orders.attach(transactionId: gpa, to: "gp-other", expectedVersion: other.version, by: support, reason: "ticket 22")
            }
            #expect(ErrorWords.text(StoreError.notPaidIn(.appStore, id: "transaction \(gpa)")).contains("`iapdesk google attach"))
            let again = try await googlePlay.attach(
                purchaseToken: token, package: GooglePlayPipelineTests.package, to: "gp-other", by: support, reason: "ticket 22", verify: verify)
            #expect(again.order.state == .rejected && again.order.replayFlag, "the purchase is gp-lost's: \(again.order)")
            #expect(try await serve.store.orders.detail("gp-lost").grants.count == 1, "delivered once")
        }
    }

    @Test(
        "Revoke a Play subscription at Google: Google's voided notice ends it here and takes the order back (R9), the game told; Google's refusal changes nothing; an App Store subscription is refused",
        arguments: Backend.all)
    func revokeAtGoogle(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let google = try #require(serve.playClient)
            let tell: @Sendable (String, String, Bool) async -> String? = { await google.revokeRefusal(package: $0, purchaseToken: $1, prorated: $2) }
            try await Self.bought(serve, order: "gp-rev", account: "p-rev", product: "vip_monthly")
            let otid = try #require(try await serve.store.orders.find("gp-rev")?.originalTransactionId)
            let support = Operator(name: "sam", role: .support)
            let googlePlay = serve.store.googlePlay

            await play.faults.set(FaultProfile(faults: [.init(.http(503))]))
            let refused = try await googlePlay.revokeSubscription(originalTransactionId: otid, prorated: false, by: support, reason: "t", tell: tell)
            #expect(refused?.contains("503") == true, "\(String(describing: refused))")
            await play.faults.set(FaultProfile())
            #expect(try await serve.store.orders.find("gp-rev")?.state == .delivered)

            #expect(
                try await googlePlay.revokeSubscription(originalTransactionId: otid, prorated: false, by: support, reason: "ticket 31: fraud", tell: tell)
                    == nil)
            _ = try await IntakeTests.waitFor("refunded", order: "gp-rev", in: serve, seconds: 20)
            #expect(
                try await eventually { try await GooglePlayPipelineTests.events(serve, order: "gp-rev").contains { $0["type"] as? String == "refunded" } },
                "the game is told")
            #expect(try await serve.store.audit.entries(limit: 100).filter { $0.action == .googleRevoke }.count == 1)
            await #expect(throws: StoreError.notPaidIn(.googlePlay, id: "subscription 1000000000000001")) {
                _ = try await googlePlay.revokeSubscription(originalTransactionId: "1000000000000001", prorated: false, by: support, reason: "x", tell: tell)
            }
        }
    }

    @Test(
        "Defer every active Play subscriber of a product, one after another with progress: each deferred and audited; one Google refused is named and the rest go on",
        arguments: Backend.all)
    func deferAll(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let google = try #require(serve.playClient)
            var ends: [String: Millis] = [:]
            for index in 1...3 {
                try await Self.bought(serve, order: "gp-all-\(index)", account: "p-all-\(index)", product: "vip_monthly")
                let otid = try #require(try await serve.store.orders.find("gp-all-\(index)")?.originalTransactionId)
                ends[otid] = try await serve.store.subscriptions.detail(otid).subscription?.expiresAt
            }
            // Google turns the first subscription down (as for one in grace); the others go on.
            let first = try #require(ends.keys.sorted().first)
            let refusedToken = try #require(await play.ledger.purchase(orderId: first)?.token)
            let reported = Reported()
            let summary = try await serve.store.googlePlay.deferAll(
                productId: "vip_monthly", days: 5, by: Operator(name: "ada", role: .admin), reason: "outage 2026-11-20",
                progress: { done, total in reported.add(done, total) }
            ) { package, token, seconds in
                token == refusedToken
                    ? .refused("Google HTTP 400: invalidState") : await google.deferAnswer(package: package, purchaseToken: token, seconds: seconds)
            }
            #expect(summary.total == 3 && summary.deferred == 2 && summary.refused.count == 1, "\(summary)")
            #expect(reported.all == [1, 2, 3].map { [$0, 3] }, "\(reported.all)")
            let refused = try #require(summary.refused.first)
            guard case .google(let words) = refused.refusal else {
                Issue.record("Google's refusal, as Google said it: \(refused.refusal)")
                return
            }
            #expect(refused.originalTransactionId == first && words == "Google HTTP 400: invalidState")
            for (otid, end) in ends {
                let now = try await serve.store.subscriptions.detail(otid).subscription?.expiresAt
                #expect(now == (otid == first ? end : end + .days(5)), "\(otid)")
            }
            #expect(try await serve.store.audit.entries(limit: 100).filter { $0.action == .googleDeferred }.count == 2)
        }
    }

    @Test(
        "The stuck queue says how long is left before Google refunds a stuck Play order (Google's notice told when it was paid); an Apple-only queue has no such column",
        arguments: Backend.all)
    func stuckQueueDeadline(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "coins_300", account: "p-stuck")
            #expect(try await eventually { try await serve.store.googlePlay.purchase(token: bought.token)?.acknowledgeBy != nil }, "Google's notice kept")
            await play.faults.set(FaultProfile(faults: [.init(.http(503))]))
            _ = try await GooglePlayPipelineTests.submit(serve, order: "gp-stuck", account: "p-stuck", product: "coins_300", token: bought.token)
            _ = try await IntakeTests.waitFor("verify_retry", order: "gp-stuck", in: serve)
            let deadline = try #require(try await serve.store.googlePlay.purchase(token: bought.token)?.acknowledgeBy)
            let now = deadline - .hours(6)
            let stuck = try await serve.store.reports.stuck(now: now).items
            let row = try #require(stuck.first { $0.order.orderId == "gp-stuck" })
            #expect(row.acknowledgeBy == deadline)
            let listing = OrderListings.stuck(storeIsProduction: true, for: stuck, now: now)
            let left = try #require(listing.columns.first { $0.title == "ACK LEFT" })
            #expect(left.cell(row).text == "6h0m" && left.cell(row).tone == .alert)
            #expect(
                !OrderListings.stuck(storeIsProduction: true, for: stuck.filter { $0.order.marketplace == .appStore }).columns.contains {
                    $0.title == "ACK LEFT"
                })
        }
    }

    /// Progress reports, as a console's progress bar receives them.
    final class Reported: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [[Int]] = []
        func add(_ done: Int, _ total: Int) { lock.withLock { reports.append([done, total]) } }
        var all: [[Int]] { lock.withLock { reports } }
    }
}
