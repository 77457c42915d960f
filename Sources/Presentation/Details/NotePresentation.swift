import OrderDomain

/// Support's notes as the order screen, the account screen and `order show` print them:
/// when, who, what, oldest first.
public enum NotePresentation {
    /// Nil when there is no note: the section is left out, not shown empty.
    public static func section(_ notes: [Note]) -> DetailSection? {
        notes.isEmpty ? nil : DetailSection("Notes", notes.map { DetailLine(at: $0.at, "\($0.author): \($0.text)", tone: .plain) })
    }
}
