import OrderDomain
import OrderStore
import Presentation
import Testing

/// The words and columns the console and the command line share: what fits where, and how
/// a value shortens to its column.
@Suite("Presentation")
struct PresentationTests {
    static let morning: Millis = 1_795_428_672_000  // 2026-11-23 10:11:12 UTC

    @Test("A time shortens to its column from the year down, never cut mid-number; the command line prints it whole")
    func timesFit() {
        let cell = Cell.time(Self.morning)
        #expect(cell.text == "2026-11-23T10:11:12Z")
        #expect(cell.text(fitting: 19) == "2026-11-23 10:11:12")
        #expect(cell.text(fitting: 16) == "2026-11-23 10:11")
        #expect(cell.text(fitting: 11) == "11-23 10:11")
        #expect(cell.text(fitting: 8) == "10:11:12")
        #expect(cell.text(fitting: 5) == "10:11")
        #expect(Cell.time(nil).text == "-" && Cell.time(nil).text(fitting: 11) == "-")
        #expect(Cell(nil).text == "-" && Cell(.age(.minutes(90))).text == "1h30m" && Cell.count(7).text == "7")
    }

    @Test("Optional columns appear only when the terminal has room to spare, in their place; the required ones always")
    func optionalColumns() {
        let orders = OrderListings.orders(storeIsProduction: true)
        #expect(orders.columns(fitting: 79).map(\.title) == ["ORDER", "ACCOUNT", "PRODUCT", "STATE", "CREATED"])
        #expect(orders.columns(fitting: 119).map(\.title) == ["ORDER", "ACCOUNT", "PRODUCT", "STATE", "ENV", "TRANSACTION", "CREATED"])
        #expect(orders.headers.count == 7, "the command line prints every column")
        let stuck = OrderListings.stuck(storeIsProduction: true)
        // At 80 columns the last error keeps the room the account would take.
        #expect(!stuck.columns(fitting: 79).map(\.title).contains("ACCOUNT"))
        #expect(stuck.columns(fitting: 99).map(\.title).contains("ACCOUNT"))
    }

    @Test("Every list's required columns fit an 80-column terminal, so no column (the dispute's owner) is cut by the edge")
    func everyListFitsEighty() {
        func required<Item>(_ listing: Listing<Item>) -> Int {
            let columns = listing.columns(fitting: 79)
            return columns.reduce(0) { $0 + $1.width } + columns.count - 1
        }
        let widths = [
            ("orders", required(OrderListings.orders(storeIsProduction: true))), ("stuck", required(OrderListings.stuck(storeIsProduction: true))),
            ("conflicts", required(OrderListings.conflicts())), ("disputes", required(OwnershipListings.disputes())),
            ("orphans", required(QueueListings.orphans())), ("jobs", required(QueueListings.jobs())),
            ("events", required(QueueListings.undeliveredEvents())), ("notifications", required(QueueListings.notifications())),
            ("audit", required(QueueListings.audit())),
        ]
        for (name, width) in widths { #expect(width <= 79, "\(name) needs \(width) cells") }
    }
}
