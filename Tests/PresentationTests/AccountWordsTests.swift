import OrderDomain
import OrderStore
import Presentation
import Testing

/// What the account screen and `account show` say, built from values alone.
@Suite("Presentation: a game account")
struct AccountWordsTests {
    static let t0 = OrderWordsTests.t0

    @Test(
        "Notes first, then the same Apple Account's other accounts, flags as alerts; orders in their state's tone with R2's SBX, a revoked grant failed; every part counted"
    )
    func account() {
        var sandbox = OrderWordsTests.order(.delivered)
        sandbox.environment = .sandbox
        let grant = Grant(
            id: 1, orderId: "o1", accountId: "a1", transactionId: "t1", kind: .manual, operatorName: "lin", reason: "ticket 4711", grantedAt: Self.t0,
            revokedAt: Self.t0 + .hours(1), revokedBy: "root", revokeReason: "refunded")
        let detail = AccountDetail(
            accountId: "a1", orders: [sandbox], grants: [grant], subscriptions: [],
            flags: [AccountFlag(accountId: "a1", flag: .replay, orderId: "o2", detail: "the purchase paid order o1", at: Self.t0)],
            notes: [Note(id: 1, target: .account("a1"), author: "lin", at: Self.t0, text: "asked twice")],
            sameAppleAccount: [SiblingAccount(accountId: "a2", refunds: 2)])
        let sections = AccountPresentation.sections(detail, storeIsProduction: true)
        #expect(
            sections.map(\.heading) == [
                "Notes", "Same Apple Account as (by appTransactionId)", "Flags", "Orders (1)", "Grants (1)", "Subscriptions owned (0)",
            ])
        #expect(sections[1].lines.map(\.text) == ["a2  2 refunded"])
        #expect(sections[2].lines == [DetailLine(at: Self.t0, "replay  order o2: the purchase paid order o1", tone: .alert)])
        #expect(sections[3].lines == [DetailLine(at: Self.t0, "o1              coins_60     delivered SBX", tone: .state(.delivered))])
        #expect(sections[4].lines.first?.tone == .failed && sections[4].lines.first?.text.hasPrefix("o1  manual by lin  REVOKED") == true)
        #expect(sections[5].lines.map(\.text) == ["none"], "an empty part says so")

        let quiet = AccountPresentation.sections(
            AccountDetail(accountId: "a9", orders: [], grants: [], subscriptions: [], flags: [], notes: [], sameAppleAccount: []), storeIsProduction: false)
        #expect(quiet.map(\.heading) == ["Orders (0)", "Grants (0)", "Subscriptions owned (0)"], "parts with nothing to say are left out")
    }
}
