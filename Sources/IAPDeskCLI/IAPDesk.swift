import ArgumentParser

/// The `iapdesk` command: every console action is also a command here (DESIGN.md §1).
public struct IAPDesk: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "iapdesk",
        abstract: "A console for Apple In-App Purchase orders: find, verify, grant, settle ownership. Everything audited.",
        subcommands: [
            DemoCommand.self, OrderCommand.self, StuckCommand.self, OrphansCommand.self, SubscriptionCommand.self,
            AuditCommand.self, OperatorCommand.self, SeedCommand.self, ConfigCommand.self,
        ])

    public init() {}
}

extension IAPDesk {
    /// Parses the process arguments and runs the chosen command, awaiting async ones.
    /// (From a `main.swift`, `main()` resolves to ArgumentParser's synchronous overload.)
    public static func runFromCommandLine(_ arguments: [String]? = nil) async {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
