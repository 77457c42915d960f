import OrderDomain
import OrderStore
import Presentation
import Testing

/// CSV and JSON as finance's tools read them: quoted where RFC 4180 needs it, formulas
/// defused for spreadsheets, JSON with numbers as numbers and absent values as null.
@Suite("Exports")
struct ExportTests {
    struct Item {
        var name: String?
        var amount: Int64?
        var at: Millis?
    }

    static let fields: [ExportField<Item>] = [
        ExportField("name") { .text($0.name) }, ExportField("amount") { .number($0.amount) }, ExportField("at") { .time($0.at) },
    ]

    @Test("CSV quotes commas, quotes and newlines, puts ' before a formula, leaves absent values empty; JSON keeps types and escapes control characters")
    func formats() {
        let items = [
            Item(name: "plain", amount: 600, at: 1_793_491_200_000), Item(name: "a,b \"c\"\nd", amount: nil, at: nil),
            Item(name: "=HYPERLINK(\"x\")", amount: -1, at: nil), Item(name: "\u{1B}]0;x\u{07}", amount: 0, at: nil),
        ]
        #expect(Export.csvHeader(Self.fields) == "name,amount,at")
        let csv = Export.csvLines(Self.fields, items)
        #expect(csv[0] == "plain,600,2026-11-01T00:00:00Z")
        #expect(csv[1] == "\"a,b \"\"c\"\"\nd\",,")
        #expect(csv[2] == "\"'=HYPERLINK(\"\"x\"\")\",-1,", "a number may be negative; a text formula is defused")
        let json = Export.jsonObjects(Self.fields, items)
        #expect(json[0] == #"{"name":"plain","amount":600,"at":"2026-11-01T00:00:00Z"}"#)
        #expect(json[1].contains(#""amount":null,"at":null"#))
        #expect(json[3].contains(#"\u001b]0;x\u0007"#) && !json[3].contains("\u{1B}"), "\(json[3])")
    }
}
