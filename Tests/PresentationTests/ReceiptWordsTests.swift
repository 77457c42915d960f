import OrderDomain
import OrderStore
import Testing

@testable import Presentation
@testable import Receipts

/// What the receipt screen and `order receipt` say, built from values alone: no database, no
/// Apple. The screen and the command against the simulator are in ConsoleTests and
/// IAPDeskCLITests.
@Suite("Presentation: an order's receipt page")
struct ReceiptWordsTests {
    static let t0 = OrderWordsTests.t0

    static func transaction(_ id: String, at: Millis, cancelled: Millis? = nil) -> AppleTransaction {
        AppleTransaction(
            transactionId: id, originalTransactionId: "100", productId: "vip_month", purchaseDate: at, expiresDate: at + .hours(720),
            cancellationDate: cancelled)
    }

    @Test("Before Apple is asked: where the text came from, no signature in it said so, no verdict said so, every decoded field under its section")
    func beforeApple() {
        let document = ReceiptDocument(
            kind: "app receipt", signatures: [], sections: [.init(title: "Receipt", fields: [.init(name: "bundle_id", value: "com.example.game")])])
        let sections = ReceiptPresentation.sections(source: "the receipt submitted at …", document: document, verdict: nil, content: nil, picked: nil)
        #expect(sections.map(\.heading) == [nil, "Signatures", "The store's verdict", "Receipt"])
        #expect(sections[0].lines == [DetailLine(label: "Source", "the receipt submitted at …")])
        #expect(sections[1].lines.map(\.text) == ["none in this data (verifyReceipt answers are Apple's word over TLS)"])
        #expect(sections[2].lines.map(\.text) == ["none stored: Apple has not been asked since verdicts are kept"])
        #expect(sections[3].lines == [DetailLine("bundle_id" + String(repeating: " ", count: 17) + "com.example.game", depth: 1)])
    }

    @Test(
        "Apple's answer: the verdict's reason and checks in their tones, R2 and R8 said; transactions newest first, the order's marked, a cancelled one failed; pending renewal"
    )
    func answer() {
        let verdict = StoredVerdict(
            outcome: .final, why: Why(.refunded(.appStore), ReasonParticulars(transactionId: "102")), pickedTransactionId: "102",
            checks: [
                ReceiptCheck(name: .bundleId, passed: true, evidence: .saw("com.example.game")),
                ReceiptCheck(name: .notCancelled, passed: false, evidence: .cancelled(at: Self.t0 + .hours(744))),
            ],
            ownership: .sameOwner, orderState: .rejected, sandboxInProduction: true)
        var content = AppleReceiptContent(
            bundleId: "com.example.game", inApp: [Self.transaction("101", at: Self.t0)],
            latestReceiptInfo: [Self.transaction("102", at: Self.t0 + .hours(720), cancelled: Self.t0 + .hours(744))])
        content.pendingRenewals = [AppleRenewalInfo(originalTransactionId: "100", productId: "vip_month", autoRenewEnabled: false)]
        let sections = ReceiptPresentation.sections(source: "Apple's answer", document: nil, verdict: verdict, content: content, picked: "102")

        #expect(sections[0].lines.last == DetailLine(ReceiptPresentation.notApple, tone: .alert), "no document: said, not left blank")
        #expect(sections[1].heading == "The store's verdict: final → rejected")
        #expect(
            sections[1].lines.map(\.tone) == [.alert, .alert, .passed, .failed, .plain],
            "the reason of a refusal and R2's flag alert; each check in its tone; R8's reason plain")
        #expect(
            sections[1].lines.map(\.text) == [
                "Apple refunded transaction 102", EnvironmentRule.flaggedSandboxText, "✓ bundle id: com.example.game",
                "✗ not cancelled: cancelled \((Self.t0 + .hours(744)).iso8601)", "R8: submitter already owns the subscription",
            ])
        let transactions = sections[2].lines
        #expect(transactions.map { String($0.text.prefix(5)) } == ["▶ 102", "  101"], "newest first, the order's own marked")
        #expect(
            transactions[0].tone == .failed && transactions[0].text.contains("CANCELLED"), "a cancelled transaction reads as failed even when it is the order's"
        )
        #expect(transactions[1].tone == .plain && transactions[1].text.contains("expires"))
        #expect(sections[3].heading == "Pending renewal" && sections[3].lines.map(\.text) == ["100  vip_month  auto-renew off"])
    }

    @Test(
        "Reading: an order with nothing submitted says so; an answer that is not Apple data says so; without a reader the page says the answer was not read back"
    )
    func reading() async {
        let empty = await ReceiptPresentation.read(OrderWordsTests.detail(OrderWordsTests.order()), trust: TrustRoots(), answers: nil)
        #expect(empty.sections.flatMap(\.lines).map(\.text) == [ReceiptPresentation.noReceipt] && empty.raw.isEmpty)

        var attempt = OrderWordsTests.timedOut(at: Self.t0)
        attempt.body = "{\"status\": 0, \u{1b}[31m"
        attempt.appleStatus = 0
        let page = await ReceiptPresentation.read(OrderWordsTests.detail(OrderWordsTests.order(), attempts: [attempt]), trust: TrustRoots(), answers: nil)
        #expect(page.raw == attempt.body)
        let first = page.sections[0].lines.map(\.text)
        #expect(first.first?.hasPrefix("Apple's answer to the latest call: verify_receipt - at") == true, "\(first)")
        #expect(first.contains(ReceiptPresentation.notApple) && first.contains(ReceiptPresentation.notReadBack))
    }
}
