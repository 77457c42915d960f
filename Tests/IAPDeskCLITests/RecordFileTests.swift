import ArgumentParser
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// A studio's CSV as a spreadsheet writes it (RFC 4180): quoted fields with commas, quotes
/// and line breaks are one field each, and an error still names the line it is on.
@Suite("Import files: CSV as spreadsheets write it")
struct RecordFileTests {
    static let columns = ["id", "name", "gives"]

    @Test(
        "Quoted fields keep their commas, doubled quotes and line breaks; the next record names its own line; a stray field or an open quote is refused by line"
    )
    func quoting() throws {
        let text = "id,name,gives\r\np1,\"Gems, big\",\"gems:100,chest\"\np2,\"The \"\"best\"\" pack\nof all\",\np3,plain,coins:5\n"
        let records = try RecordFile.csv(text, file: "f.csv", columns: Self.columns, required: "id")
        #expect(records.map(\.fields["name"]) == ["Gems, big", "The \"best\" pack\nof all", "plain"])
        #expect(records[0].fields["gives"] == "gems:100,chest")
        #expect(records.map(\.place) == ["f.csv:2: ", "f.csv:3: ", "f.csv:5: "])

        #expect(throws: ValidationError.self) { try RecordFile.csv("id,name\np1,a,b\n", file: "f.csv", columns: Self.columns, required: "id") }
        #expect(throws: ValidationError.self) { try RecordFile.csv("id,name\np1,\"open\n", file: "f.csv", columns: Self.columns, required: "id") }
        do { _ = try RecordFile.csv("id,name\np1,\"open\n", file: "f.csv", columns: Self.columns, required: "id") } catch let error as ValidationError {
            #expect(error.message.contains("f.csv:2") && error.message.contains("never closed"), "\(error.message)")
        }
    }
}
