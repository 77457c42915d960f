import ArgumentParser
import OrderDomain
import OrderStore

struct OperatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operator", abstract: "Operators and their roles, kept in the store (and, on PostgreSQL, in the database).",
        subcommands: [List.self, Add.self, DatabaseRolesCommand.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every operator with their role, and who added them when.")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let operators = try await store.withStore { store, _ in try await store.operators.list() }
            guard !operators.isEmpty else {
                print("no operator yet: the first `iapdesk operator add NAME --role admin` makes one")
                return
            }
            print(
                Output.table(
                    ["NAME", "ROLE", "ADDED", "BY"],
                    operators.map { [Output.safe($0.name), $0.role.rawValue, Output.time($0.addedAt), Output.safe($0.addedBy)] }))
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Give NAME a role (viewer, support, admin). The first operator must be an admin. On PostgreSQL with \
                the iapdesk database roles set up, NAME's database login must be in the role's group too (--db-login).
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "Their OS user name (the SSH login in the recipe).") var name: String
        @Option(help: "viewer (reads everything), support (acts on orders) or admin (also operators, the catalogue, Apple's actions).") var role: Role
        @Flag(help: "PostgreSQL: also make NAME a database login in the role's group (needs CREATEROLE).")
        var dbLogin = false

        func run() async throws {
            let loginStatements = try await store.withStore { store, _ in
                let actor = try await store.operators.actor(forUser: OperatorIdentity.current)
                try await store.operators.add(name: name, role: role, by: actor)
                return dbLogin ? try await store.grantDatabaseLogin(name, role: role) : nil
            }
            print("\(Output.safe(name)) is now \(role.rawValue)")
            if let loginStatements {
                print("database: \(Output.safe(name)) logs in as a member of \(DatabaseRoles.group(role)) (\(loginStatements.joined(separator: "; ")))")
            }
        }
    }

    struct DatabaseRolesCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "db-roles",
            abstract: """
                PostgreSQL: print (or --apply, as the store's owner with CREATEROLE) the group roles iapdesk_viewer, \
                iapdesk_support and iapdesk_admin and the grants that let each do only what its role may.
                """)
        @OptionGroup var store: StoreOptions
        @Flag(help: "Run the statements instead of printing them.") var apply = false

        func run() async throws {
            let statements = try await store.withStore { store, _ in
                apply ? try await store.setUpDatabaseRoles() : try await store.databaseRoleStatements()
            }
            for statement in statements { print(statement + ";") }
            if apply { print("-- applied: logins in these groups now act as at most that role") }
        }
    }
}

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "config", abstract: "Show the effective configuration (secrets by origin only).")
    @OptionGroup var store: StoreOptions
    @Flag(help: "List every setting instead: its key in iapdesk.toml, its environment variable and what it means.")
    var settings = false

    func run() async throws {
        if settings {
            print(
                Output.table(["SETTING", "VARIABLE", "MEANING (DEFAULT)"], Setting.all.map { [$0.fileKey ?? "-", $0.variable ?? "-", $0.help] }, width: 120))
            return
        }
        print(Output.keyValues(try store.configuration().summary))
    }
}
