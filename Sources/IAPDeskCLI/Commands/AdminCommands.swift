import ArgumentParser
import OrderStore

struct OperatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "operator", abstract: "Operators and their roles, kept in the store.",
                                                    subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give NAME a role (viewer, support, admin). The first operator must be an admin.")
        @OptionGroup var store: StoreOptions
        @Argument var name: String
        @Option var role: String

        func run() async throws {
            guard let role = Role(rawValue: role) else { throw ValidationError("role is viewer, support or admin") }
            try await store.withStore { store, _ in
                let actor = try await store.actor(forUser: OperatorIdentity.osUser)
                try await store.addOperator(name: name, role: role, by: actor)
            }
            print("\(Output.safe(name)) is now \(role.rawValue)")
        }
    }
}

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "config", abstract: "Show the effective configuration (secrets by origin only).")
    @OptionGroup var store: StoreOptions

    func run() async throws {
        print(Output.keyValues(try store.configuration().summary))
    }
}
