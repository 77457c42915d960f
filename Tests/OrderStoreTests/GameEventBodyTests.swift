import Foundation
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// The event a game reads is one type, written and read by the same code.
@Suite("Game event bodies")
struct GameEventBodyTests {
    @Test(
        "An event reads back as it was written, item names in gives untouched, keys as the OpenAPI document spells them; a stored text that is no event is an error naming it"
    )
    func roundTrip() throws {
        var body = GameEventBody(
            id: "evt_1", type: .delivered, createdAt: t0, accountId: "p-1",
            effect: GameEventBody.Effect(op: .give, accountId: "p-1", productId: "gems_100", quantity: 2, gives: ["bonusChest": 1, "gems": 100]),
            summary: "give p-1 2 × 100 gems")
        body.orderId = "o-1"
        body.app = "com.studio.kitten"
        body.environment = .sandbox
        let json = try body.json()
        #expect(try GameEventBody(stored: json, eventId: "evt_1") == body)
        #expect(json.contains(#""bonusChest":1"#) && json.contains(#""account_id":"p-1""#) && json.contains(#""created_at":"#), "\(json)")
        #expect(!json.contains("cursor") && !json.contains("null"), "absent values are left out: \(json)")
        #expect(throws: StoreError.self) { _ = try GameEventBody(stored: "{}", eventId: "evt_9") }
        do { _ = try GameEventBody(stored: "{}", eventId: "evt_9") } catch let error as StoreError {
            #expect("\(error)".contains("evt_9"))
        }
    }
}
