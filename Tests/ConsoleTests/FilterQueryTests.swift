import OrderDomain
import OrderStore
import TestSupport
import Testing

@testable import Console

@Suite("The / grammar")
struct FilterQueryTests {
    @Test("Narrowings combine; tid:, otid:, order: and id: name the kind; unknown words are problems")
    func parse() {
        let combined = FilterQuery("state:rejected acct:p1000134 product:coins_60 env:SANDBOX")
        #expect(combined.filter == OrderFilter(state: .rejected, accountId: "p1000134", productId: "coins_60", environment: .sandbox))
        #expect(combined.lookup == nil && combined.problems.isEmpty)
        #expect(FilterQuery("tid:2000").lookup == FilterQuery.Lookup(text: "2000", kind: .transaction))
        #expect(FilterQuery("otid:2000").lookup == FilterQuery.Lookup(text: "2000", kind: .originalTransaction))
        #expect(FilterQuery("order:ord_1").lookup == FilterQuery.Lookup(text: "ord_1", kind: .order))
        #expect(FilterQuery("id:x").lookup == FilterQuery.Lookup(text: "x"))
        #expect(FilterQuery("p1000134").lookup == FilterQuery.Lookup(text: "p1000134"))
        #expect(FilterQuery("state:nope colour:red env:moon").problems == ["no state nope", "unknown filter colour:", "env is production or sandbox"])
    }

    @Test("Both stores: store: narrows to Apple's or Google's orders; token: and oacct: name Google's ids; a GPA id is a bare word")
    func googlePlay() {
        #expect(FilterQuery("store:google state:delivered").filter == OrderFilter(state: .delivered, marketplace: .googlePlay))
        #expect(FilterQuery("store:Android").filter.marketplace == .googlePlay && FilterQuery("store:apple").filter.marketplace == .appStore)
        #expect(FilterQuery("store:amazon").problems == ["store is apple or google"])
        #expect(FilterQuery("token:abc.AO-J1Oxyz").lookup == FilterQuery.Lookup(text: "abc.AO-J1Oxyz", kind: .purchaseToken))
        #expect(FilterQuery("oacct:7f3a").lookup == FilterQuery.Lookup(text: "7f3a", kind: .obfuscatedAccount))
        #expect(FilterQuery("GPA.1234-5678-9012-34567..1").lookup == FilterQuery.Lookup(text: "GPA.1234-5678-9012-34567..1"))
    }
}
