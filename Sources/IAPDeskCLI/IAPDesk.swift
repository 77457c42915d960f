import ArgumentParser

/// The `iapdesk` command: every console action is also a command here (DESIGN.md §1).
public struct IAPDesk: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "iapdesk",
        abstract: "A console for Apple In-App Purchase orders: find, verify, grant, settle ownership. Everything audited.",
        subcommands: [
            DemoCommand.self, OpenConsoleCommand.self, OrderCommand.self, StuckCommand.self, OrphansCommand.self, SubscriptionCommand.self,
            AuditCommand.self, OperatorCommand.self, ReceiptCommand.self, SeedCommand.self, ConfigCommand.self, SimulatorCommand.self, TerminalCheckCommand.self, ServeCommand.self,
            JobsCommand.self, NotificationsCommand.self, EventsCommand.self,
        ])

    public init() {}
}

extension IAPDesk {
    /// Parses the process arguments and runs the chosen command, awaiting async ones.
    /// (From a `main.swift`, `main()` resolves to ArgumentParser's synchronous overload.)
    public static func runFromCommandLine() async {
        do {
            try await run(nil)
        } catch {
            exit(withError: error)
        }
    }

    /// Parses `arguments` (the process's when nil) and runs the command; errors are thrown.
    public static func run(_ arguments: [String]?) async throws {
        var command = try parseAsRoot(arguments)
        if var asyncCommand = command as? AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
    }
}
