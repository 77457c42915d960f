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
    /// Labels and editors; the reason is always last.
    var fields: [(label: String, editor: LineEditor)]
    var focus: Int
    var error: String?
    /// Whether the last field is the reason the audit log keeps (not a note's text).
    private var lastIsAuditReason = true
    let perform: ([String]) async throws -> Outcome

    /// What confirming did: a message to show, or slow work to follow with a progress bar.
    enum Outcome {
        case message(String)
        case job(BackgroundJob)
    }

    /// `perform` gets the fields' values (the reason last) and returns the message to show
    /// once it is done. `prefilled` starts the inputs with what the evidence suggests;
    /// `textLabel` names the last, required field when it is the text itself rather than a
    /// reason (a note is its own reason).
    public convenience init(
        title: String, lines: [String], inputs: [String] = [], prefilled: [String] = [], textLabel: String? = nil, confirm: String,
        perform: @escaping ([String]) async throws -> String
    ) {
        self.init(title: title, lines: lines, inputs: inputs, confirm: confirm, outcome: { .message(try await perform($0)) })
        if let textLabel {
            fields[fields.count - 1].label = textLabel
            lastIsAuditReason = false
        }
        for (index, text) in prefilled.enumerated() where index < inputs.count { fields[index].editor.text = text }
        // What the store knew is filled in: typing starts where something is still wanted,
        // the reason when every input is known.
        focus = fields.firstIndex { $0.editor.text.isEmpty } ?? 0
    }

    /// `startJob` does the quick, refusable part (the store may say no, shown in the dialog)
    /// and returns the slow rest, which the console runs with its progress bar.
    public convenience init(
        title: String, lines: [String], inputs: [String] = [], confirm: String,
        startJob: @escaping ([String]) async throws -> BackgroundJob
    ) {
        self.init(title: title, lines: lines, inputs: inputs, confirm: confirm, outcome: { .job(try await startJob($0)) })
    }

    private init(title: String, lines: [String], inputs: [String], confirm: String, outcome: @escaping ([String]) async throws -> Outcome) {
        self.title = title
        self.lines = lines
        self.confirm = confirm
        fields = (inputs + ["Reason"]).map { ($0, LineEditor()) }
        focus = 0
        perform = outcome
    }

    var values: [String] { fields.map { $0.editor.text.trimmingCharacters(in: .whitespaces) } }

    /// Every field is required: the first one still empty takes the focus, and what it
    /// needs is returned; nil when all are filled.
    func firstMissing() -> String? {
        guard let empty = values.firstIndex(where: \.isEmpty) else { return nil }
        focus = empty
        return empty == fields.count - 1 && lastIsAuditReason
            ? "a reason is required: it goes into the audit log" : "\(fields[empty].label) is required"
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
            let used = screen.write("\(field.label): \(field.editor.text)", row: input, col: left + 2, maxWidth: width - 4, style: theme[.dialog])
            if index == focus { screen.write("█", row: input, col: left + 2 + used, style: theme[.dialog]) }
        }
        screen.write(
            " Enter \(confirm)\(fields.count > 1 ? " · Tab next field" : "") · Esc cancel ", row: bottom - fields.count - 1, col: left + 2, maxWidth: width - 4,
            style: theme[.muted])
    }
}
