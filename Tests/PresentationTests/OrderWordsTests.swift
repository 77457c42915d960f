import OrderDomain
import OrderStore
import Testing

@testable import Presentation

/// What an order's screen and `order show` say, built from values alone: a wording change is
/// tested here, without a database.
@Suite("Presentation: an order's timeline, badges, events and banners")
struct OrderWordsTests {
    static let t0: Millis = 1_793_491_200_000  // 2026-11-01T00:00:00Z

    static func order(_ state: OrderState = .verifyRetry) -> Order {
        Order(
            orderId: "o1", accountId: "a1", productId: "coins_60", quantity: 1, createdAt: t0, state: state, stateChangedAt: t0, version: 1,
            updatedBy: "system", stuckSince: nil, environment: nil, transactionId: nil, originalTransactionId: nil, attempts: 0, firstFailureAt: nil,
            nextRetryAt: nil, needsOperator: false, replayFlag: false)
    }

    static func timedOut(at: Millis) -> VerificationAttempt {
        VerificationAttempt(
            id: at, at: at, method: .verifyReceipt, environment: nil, outcome: .retryable, appleStatus: nil, httpStatus: nil, latencyMs: 30_000,
            why: Why(.storeUnreachable(.appStore), ReasonParticulars(message: "timed out after 30 s")), body: nil, verdict: nil)
    }

    static func detail(_ order: Order, attempts: [VerificationAttempt] = [], audit: [AuditEntry] = [], events: [GameEventDetail] = []) -> OrderDetail {
        OrderDetail(order: order, product: nil, submissions: [], attempts: attempts, grants: [], transactions: [], audit: audit, events: events)
    }

    @Test("Ten calls with the same answer show as the first, one line for eight, the last; no empty fields, no dangling colon")
    func collapsedAndPlain() {
        var attempts = (1...10).map { Self.timedOut(at: Self.t0 + .minutes($0)) }
        attempts.append(
            VerificationAttempt(
                id: 11, at: Self.t0 + .minutes(20), method: .verifyReceipt, environment: .production, outcome: .retryable, appleStatus: 21005,
                httpStatus: 200, latencyMs: 40, why: nil, body: nil, verdict: nil))
        let audit = AuditEntry(
            seq: 7, at: Self.t0 + .minutes(30), actor: "root", role: .admin, action: .reverify, target: .order("o1"), reason: nil, detail: AuditDetail(),
            hash: "")
        let lines = Self.detail(Self.order(), attempts: attempts, audit: [audit]).timeline.map(\.text)
        let calls = lines.filter { $0.hasPrefix("verify") || $0.hasPrefix("…") }
        #expect(calls.count == 4, "\(calls)")
        #expect(calls[1] == "… 8 more calls to Apple with the same answer", "\(calls)")
        #expect(calls[0] == calls[2])  // the first and the last of the run read alike
        #expect(calls[0] == "verify verify_receipt: retryable, 30000 ms — no answer from Apple: timed out after 30 s", "\(calls[0])")
        #expect(calls[3] == "verify verify_receipt Production: retryable, status 21005 (\(StatusCodeRule.meaning(of: 21005))), HTTP 200, 40 ms", "\(calls[3])")
        #expect(lines.first == "order placed" && lines.last == "audit #7 reverify by root (admin)", "\(lines)")
    }

    @Test("Three calls with the same answer show as three: a line for one hidden call would save nothing")
    func threeShownWhole() {
        let attempts = (1...3).map { Self.timedOut(at: Self.t0 + .minutes($0)) }
        let calls = Self.detail(Self.order(), attempts: attempts).timeline.filter { $0.text.hasPrefix("verify") || $0.text.hasPrefix("…") }
        #expect(calls.count == 3 && calls.allSatisfy { $0.text.hasPrefix("verify") }, "\(calls.map(\.text))")
        #expect(Set(calls.map(\.at)).count == 3, "each call at its own time")
    }

    @Test("Badges say what an operator must see beside the state; a tester's sandbox purchase is flagged only in a production store")
    func badges() {
        var order = Self.order(.delivered)
        #expect(order.badges(storeIsProduction: true).isEmpty == false, "a hand delivery not confirmed by Apple")
        #expect(order.badges(storeIsProduction: true) == ["UNCONFIRMED: Apple has not yet confirmed the purchase"])
        order.transactionId = "1000000001"
        order.environment = .sandbox
        order.needsOperator = true
        order.deliveryConflict = "o9"
        #expect(
            order.badges(storeIsProduction: true) == [
                "NEEDS OPERATOR", "TWO DELIVERIES for one purchase (also order o9)", EnvironmentRule.flaggedSandboxText,
            ])
        #expect(order.badges(storeIsProduction: false) == ["NEEDS OPERATOR", "TWO DELIVERIES for one purchase (also order o9)"])
    }

    @Test("An event's delivery reads as the game's state of knowledge: not told, not confirmed, confirmed, dead")
    func eventDelivery() {
        var event = GameEvent(
            id: 1, eventId: "evt_1", type: .delivered, orderId: "o1", accountId: "a1", createdAt: Self.t0, payload: "{}", attempts: 0, lastAttemptAt: nil,
            lastStatus: nil, lastError: nil, confirmedAt: nil, confirmedVia: nil, deadAt: nil)
        #expect(event.deliveryText == "not told yet")
        #expect(event.summary == "delivered", "a payload the store did not write reads as its type")
        event.attempts = 3
        event.lastError = "HTTP 503"
        #expect(event.deliveryText == "not confirmed after 3 tries: HTTP 503")
        event.deadAt = Self.t0 + .hours(72)
        #expect(event.deliveryText == "DEAD after 3 tries: HTTP 503")
        event.deadAt = nil
        event.confirmedAt = Self.t0 + 1_000
        event.confirmedVia = "push"
        #expect(event.deliveryText == "confirmed 2026-11-01T00:00:01Z (push) after 3 tries")
        let told = Self.detail(Self.order(.delivered), events: [GameEventDetail(event: event, attempts: [])]).gameTold
        #expect(told?.text == "delivered: confirmed 2026-11-01T00:00:01Z (push) after 3 tries" && told?.confirmed == true)
        #expect(Self.detail(Self.order()).gameTold == nil, "nothing was owed to the game")
        let attempt = GameEventAttempt(at: Self.t0, via: .push, httpStatus: 503, answer: "game down", latencyMs: 4)
        #expect(attempt.line == "2026-11-01T00:00:00Z push HTTP 503 in 4 ms — game down")
    }

    @Test("The audit list names the grants an entry records: one delivery's grant, a seed's range; an empty detail adds no separator")
    func auditGrants() {
        let delivery = AuditEntry(
            seq: 9, at: Self.t0, actor: "system", role: .rule, action: .verifyValid, target: .order("o1"), reason: nil,
            detail: AuditDetail(move: .init(from: .verified, to: .delivered)), grants: 42...42, hash: "")
        var seed = delivery
        (seed.action, seed.target, seed.detail, seed.grants) = (AuditAction.seed, AuditTarget.seed, AuditDetail(.seed(orders: 300)), 1...280)
        var granted = delivery
        (granted.reason, granted.detail, granted.grants) = ("ticket 7", AuditDetail(), nil)
        let detail = { (entry: AuditEntry) in QueueListings.audit().cells(entry).last?.text }
        #expect(detail(delivery) == "verified → delivered · grant #42")
        #expect(detail(seed) == "300 synthetic orders · grants #1–#280")
        #expect(detail(granted) == "ticket 7")
    }

    @Test("Banners: Apple failing, the game failing, orders waiting for a person — counted in words, singular and plural")
    func banners() {
        let at = Self.t0 + .hours(3) + .minutes(12)
        #expect(
            AppleOutage(method: .verifyReceipt, since: at, failures: 5, waiting: 1).banner
                == "verifyReceipt failing since 03:12 UTC — 1 order waiting, none rejected")
        #expect(
            AppleOutage(method: .serverAPI, since: at, failures: 5, waiting: 212).banner
                == "App Store Server API failing since 03:12 UTC — 212 orders waiting, none rejected")
        #expect(
            GameEndpointOutage(since: at, failures: 3, waiting: 1_200).banner == "game endpoint failing since 03:12 UTC — 1000+ events not confirmed, none lost"
        )
        #expect(
            OperatorAlert(reason: .sharedSecretRejected, orders: 2, since: at, example: ReasonParticulars()).banner
                == "verifyReceipt rejects our shared secret (21004): 2 orders waiting, none rejected — fix `shared_secret_file` in [apple]; the retries then go through"
        )
        #expect(
            OperatorAlert(reason: .googleAcknowledgementDue, orders: 1, since: at, deadline: at + .hours(72)).banner.hasPrefix(
                "Google Play refunds these purchases unless acknowledged (three-day rule) by "))
    }
}
