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
}
