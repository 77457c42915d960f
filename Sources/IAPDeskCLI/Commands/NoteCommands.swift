import ArgumentParser
import OrderDomain
import OrderStore
import Presentation

/// `iapdesk note`: support's notes on an order or an account, as the console's `n` writes
/// them and its screens (and `order show`) print them.
struct NoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note", abstract: "Notes on an order or an account: add one, list them.", subcommands: [Add.self, List.self],
        defaultSubcommand: List.self)

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case order, account

        func target(_ id: String) -> Note.Target { self == .order ? .order(id) : .account(id) }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a note (audited; support and admins).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "order or account.") var kind: Kind
        @Argument(help: "Its id.") var id: String
        @Argument(help: "The note (quote it).") var text: String

        func run() async throws {
            let note = try await store.withStore { store, _ in
                try await store.notes.add(to: kind.target(id), text: text, by: try await store.operators.actor(forUser: OperatorIdentity.current))
            }
            print("note #\(note.id) saved on \(kind.rawValue) \(Output.safe(id))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The notes on an order or an account, oldest first.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "order or account.") var kind: Kind
        @Argument(help: "Its id.") var id: String

        func run() async throws {
            let notes = try await store.withStore { store, _ in try await store.notes.list(on: kind.target(id)) }
            guard let section = NotePresentation.section(notes) else {
                print("no note on \(kind.rawValue) \(Output.safe(id))")
                return
            }
            print(Output.detail([section]))
        }
    }
}
