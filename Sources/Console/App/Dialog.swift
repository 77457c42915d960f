import SafeText
import Terminal

/// A dangerous action's dialog: what will happen, any input it needs (a target account), a
/// required reason, Enter to confirm, Esc to cancel, Tab between fields. When the store
/// refuses (someone else changed the order, it is already delivered), the refusal is shown
/// in the dialog and nothing is overwritten.
public final class Dialog {
    public let title: String
    public let lines: [String]
    public let confirm: String
    /// The declared fields and their editors, in the order they are shown.
    var fields: [(field: DialogField, editor: LineEditor)]
    var focus: Int
    var error: String?
    let perform: (DialogValues) async throws -> Outcome

    /// What confirming did: a message to show, or slow work to follow with a progress bar.
    enum Outcome {
        case message(String)
        case job(BackgroundJob)
    }

    /// `perform` reads the fields' values by field and returns the message to show once it
    /// is done. Typing starts in the first field still empty (what the store knew is filled).
    public convenience init(
        title: String, lines: [String], fields: [DialogField], confirm: String, perform: @escaping (DialogValues) async throws -> String
    ) {
        self.init(title: title, lines: lines, fields: fields, confirm: confirm, outcome: { .message(try await perform($0)) })
    }

    /// `startJob` does the quick, refusable part (the store may say no, shown in the dialog)
    /// and returns the slow rest, which the console runs with its progress bar.
    public convenience init(
        title: String, lines: [String], fields: [DialogField], confirm: String, startJob: @escaping (DialogValues) async throws -> BackgroundJob
    ) {
        self.init(title: title, lines: lines, fields: fields, confirm: confirm, outcome: { .job(try await startJob($0)) })
    }

    private init(title: String, lines: [String], fields: [DialogField], confirm: String, outcome: @escaping (DialogValues) async throws -> Outcome) {
        self.title = title
        self.lines = lines
        self.confirm = confirm
        self.fields = fields.map { field in
            var editor = LineEditor()
            editor.text = field.prefilled
            return (field, editor)
        }
        focus = fields.firstIndex { $0.prefilled.isEmpty } ?? 0
        perform = outcome
    }

    var values: DialogValues { DialogValues(fields.map { ($0.field, $0.editor.text.trimmingCharacters(in: .whitespaces)) }) }

    /// The first required field still empty takes the focus, and what it needs is
    /// returned; nil when every required field is filled.
    func firstMissing() -> String? {
        guard let empty = fields.firstIndex(where: { $0.field.isRequired && $0.editor.text.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            return nil
        }
        focus = empty
        return fields[empty].field.missing
    }

    /// Tab moves between fields; other keys edit the focused one.
    func edit(_ key: Key) {
        switch key {
        case .tab, .down: focus = (focus + 1) % fields.count
        case .backTab, .up: focus = (focus + fields.count - 1) % fields.count
        default: _ = fields[focus].editor.edit(key)
        }
    }

    func render(into screen: inout ScreenBuffer, theme: Theme) {
        let width = min(screen.cols - 2, 70)
        let body = lines.flatMap { TextWidth.wrap(Sanitizer.sanitize($0), to: width - 4) }
        let height = min(screen.rows - 2, body.count + 6 + fields.count + (error == nil ? 0 : 2))
        let top = max(0, (screen.rows - height) / 2), left = max(0, (screen.cols - width) / 2)
        let bottom = top + height - 1
        // The dialog's rows are cleared edge to edge: no fragment of the screen beneath
        // ("stat", "envi", half a word) stands beside the frame to be read as part of it.
        for row in top...bottom {
            screen.fill(row: row, style: theme[.row])
            screen.fill(row: row, col: left, width: width, style: theme[.dialog])
        }
        let rule = String(repeating: "─", count: max(0, width - 2))
        screen.write("┌\(rule)┐", row: top, col: left, style: theme[.dialog])
        screen.write("└\(rule)┘", row: bottom, col: left, style: theme[.dialog])
        for row in (top + 1)..<bottom {
            screen.write("│", row: row, col: left, style: theme[.dialog])
            screen.write("│", row: row, col: left + width - 1, style: theme[.dialog])
        }
        screen.write(" \(title) ", row: top, col: left + 2, maxWidth: width - 4, style: theme[.dialogTitle])
        var row = top + 2
        for line in body where row < bottom - fields.count - 2 {
            screen.write(line, row: row, col: left + 2, maxWidth: width - 4, style: theme[.dialog])
            row += 1
        }
        if let error, row < bottom - fields.count - 2 {
            row += 1
            screen.write(error, row: row, col: left + 2, maxWidth: width - 4, style: theme[.flashError])
            row += 1
        }
        for (index, field) in fields.enumerated() {
            let input = bottom - fields.count + index
            let used = screen.write("\(field.field.label): \(field.editor.text)", row: input, col: left + 2, maxWidth: width - 4, style: theme[.dialog])
            if index == focus { screen.write("█", row: input, col: left + 2 + used, style: theme[.dialog]) }
        }
        screen.write(
            " Enter \(confirm)\(fields.count > 1 ? " · Tab next field" : "") · Esc cancel ", row: bottom - fields.count - 1, col: left + 2, maxWidth: width - 4,
            style: theme[.muted])
    }
}
