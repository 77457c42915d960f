import Terminal

/// A dangerous action's dialog: what will happen, a required reason, Enter to confirm, Esc
/// to cancel. When the store refuses (someone else changed the order, it is already
/// delivered), the refusal is shown in the dialog and nothing is overwritten.
public final class Dialog {
    public let title: String
    public let lines: [String]
    public let confirm: String
    var reason = LineEditor()
    var error: String?
    let perform: (String) async throws -> String

    /// `perform` gets the reason and returns the message to show once it is done.
    public init(title: String, lines: [String], confirm: String, perform: @escaping (String) async throws -> String) {
        self.title = title
        self.lines = lines
        self.confirm = confirm
        self.perform = perform
    }

    func render(into screen: inout ScreenBuffer, theme: Theme) {
        let width = min(screen.cols - 2, 70)
        let body = lines.flatMap { TextWidth.wrap(Sanitizer.sanitize($0), to: width - 4) }
        let height = min(screen.rows - 2, body.count + 6 + (error == nil ? 0 : 2))
        let top = max(0, (screen.rows - height) / 2), left = max(0, (screen.cols - width) / 2)
        for row in top..<(top + height) { screen.fill(row: row, col: left, width: width, style: theme[.dialog]) }
        screen.write(" \(title) ", row: top, col: left + 1, maxWidth: width - 2, style: theme[.dialogTitle])
        var row = top + 2
        for line in body where row < top + height - 3 {
            screen.write(line, row: row, col: left + 2, maxWidth: width - 4, style: theme[.dialog])
            row += 1
        }
        if let error, row < top + height - 3 {
            row += 1
            screen.write(error, row: row, col: left + 2, maxWidth: width - 4, style: theme[.flashError])
            row += 1
        }
        let input = top + height - 2
        let used = screen.write("Reason: \(reason.text)", row: input, col: left + 2, maxWidth: width - 4, style: theme[.dialog])
        screen.write("█", row: input, col: left + 2 + used, style: theme[.dialog])
        screen.write("Enter \(confirm) · Esc cancel", row: top + height - 1, col: left + 2, maxWidth: width - 4, style: theme[.muted])
    }
}
