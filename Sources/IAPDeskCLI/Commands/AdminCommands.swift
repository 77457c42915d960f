import ArgumentParser
import OrderStore

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "audit", abstract: "The append-only, hash-chained audit log (R10).",
                                                    subcommands: [Verify.self, Log.self])

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Recompute the chain; report the first broken entry (exit 1).")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let result = try await store.withStore { store, _ in try await store.verifyAuditLog() }
            switch result {
            case .intact(let entries):
                print("audit log intact: \(entries) entries")
            case .broken(let seq, let why):
                print("audit log BROKEN at entry \(seq): \(why)")
                throw ExitCode(1)
            }
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Newest entries first.")
        @OptionGroup var store: StoreOptions
        @Option var limit: Int = 50

        func run() async throws {
            let entries = try await store.withStore { store, _ in try await store.auditLog(limit: limit) }
            print(Output.table(["SEQ", "WHEN", "WHO", "ROLE", "ACTION", "TARGET", "REASON", "DETAIL"], entries.map {
                ["\($0.seq)", Output.time($0.at), Output.safe($0.actor), $0.role, $0.action, Output.safe($0.target), Output.safe($0.reason), Output.safe($0.detail)]
            }))
        }
    }
}

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
