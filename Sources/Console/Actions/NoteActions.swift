import OrderDomain
import OrderStore

/// Writing a note on an order or an account from the console (what `iapdesk note add` does).
enum NoteActions {
    /// `n` on an order or an account screen, for operators who may act (nil: nothing loaded yet).
    static func command(on target: Note.Target?, session: ConsoleSession) -> KeyCommand {
        KeyCommand(KeyBinding(.character("n"), action: "note"), who: .support, available: target != nil) {
            target.map { write(on: $0, session: session) } ?? .none
        }
    }

    static func write(on target: Note.Target, session: ConsoleSession) -> ScreenAction {
        let (store, actor) = (session.store, session.actor)
        let name =
            switch target {
            case .order(let id): "order \(id)"
            case .account(let id): "account \(id)"
            }
        // A note is its own reason: its text is the one field.
        let text = DialogField("Note")
        return .dialog(
            Dialog(
                title: "Note on \(name)",
                lines: ["Whoever opens the \(name) next reads it, with your name and the time. It goes into the audit log too."],
                fields: [text], confirm: "save"
            ) { values in
                try await store.notes.add(to: target, text: values[text], by: actor)
                return "note saved on \(name)"
            })
    }
}
