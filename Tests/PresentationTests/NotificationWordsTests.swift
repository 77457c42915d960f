import OrderDomain
import Testing

@testable import Presentation

/// What a notification did is kept as facts; these are the words the notification page,
/// the list and the timelines say of it.
@Suite("Presentation: what a notification did, in words")
struct NotificationWordsTests {
    static let refund = NotificationFacts(uuid: "n1", type: "REFUND", signedDate: 0, environment: "Production")

    @Test("Each kept detail reads as support knows it; words kept before read back as they were")
    func said() {
        let cases: [(NotificationDetail, String)] = [
            (.orderRefunded(orderId: "o1"), "order o1 refunded and its grant revoked (R9)"),
            (.shareTold(orderId: "o1", takesBack: true, share: 30_000, units: 3, of: 10), "order o1 stays delivered; the game takes back 30 % (3 of 10 whole)"),
            (.cancelUnclaimed(transactionId: "700", revoked: true), "no order claims transaction 700; it is kept as revoked"),
            (
                .subscriptionStands(originalTransactionId: "9", status: .expired, autoRenew: false, ownerKnown: false),
                "no order holds it yet: subscription 9: expired, auto-renew off, owner unknown"
            ),
            (
                .consentRescinded(appTransactionId: "app1", accounts: ["kid-a", "kid-b"]),
                "a parent withdrew consent (app transaction app1): the game ends the access of kid-a, kid-b"
            ),
            (.kept, "REFUND is a type iapdesk does not know: kept raw, no effect on orders"),
            (.words("kept from before"), "kept from before"),
        ]
        for (detail, words) in cases { #expect(NotificationWords.said(detail, facts: Self.refund) == words) }
    }

    @Test("A stored detail reads back as the same value; text that is not this version's JSON is kept as words, not lost")
    func storedText() throws {
        let detail = NotificationDetail.periodForOwner(transactionId: "1001", until: 1_000, owner: "acct-vip")
        #expect(NotificationDetail(storedText: try detail.json()) == detail)
        #expect(NotificationDetail(storedText: "order o1 refunded and its grant revoked (R9)") == .words("order o1 refunded and its grant revoked (R9)"))
        #expect(NotificationDetail(storedText: "{not json") == .words("{not json"))
    }
}
