import Terminal
import Testing

@testable import Console

/// A dialog's fields are declared where it is built: each is read back by itself, whatever
/// the order they stand in, and only the ones declared required hold the dialog back.
@Suite("Dialog fields")
struct DialogTests {
    @Test("Values are read by field; an optional field may stay empty; the first required empty one takes the focus and says why")
    func fieldsByDeclaration() async throws {
        let account = DialogField("To account")
        let note = DialogField("Note for the player", required: false)
        let days = DialogField("Days", prefilled: "7")
        let dialog = Dialog(title: "t", lines: [], fields: [note, .reason, days, account], confirm: "go") { values in
            "\(values[account])|\(values[days])|\(values[note])|\(values[.reason])"
        }
        #expect(dialog.focus == 0, "typing starts in the first field the store left empty")

        #expect(dialog.firstMissing() == "a reason is required: it goes into the audit log")
        #expect(dialog.focus == 1)
        for character in " ticket 9 " { dialog.edit(.character(character)) }
        #expect(dialog.firstMissing() == "To account is required", "the optional note never holds the dialog back")
        #expect(dialog.focus == 3)
        for character in "acct-2" { dialog.edit(.character(character)) }
        #expect(dialog.firstMissing() == nil)

        guard case .message(let done) = try await dialog.perform(dialog.values) else {
            Issue.record("a message dialog answers with a message")
            return
        }
        #expect(done == "acct-2|7||ticket 9", "each value by its field, trimmed")
    }
}
