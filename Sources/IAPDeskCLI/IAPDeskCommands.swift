import ArgumentParser
import Foundation

/// The commands of operators and of the studio that runs iapdesk, which link no simulator:
/// the `iapdesk` executable offers them beside the demo's (module IAPDeskApp).
public enum IAPDeskCommands {
    public static let all: [any ParsableCommand.Type] = [
        InitCommand.self, OpenConsoleCommand.self, OrderCommand.self, StuckCommand.self, OrphansCommand.self, SubscriptionCommand.self,
        AccountCommand.self, AuditCommand.self, OperatorCommand.self, ReceiptCommand.self, ConfigCommand.self, GoogleCommand.self,
        TerminalCheckCommand.self, ServeCommand.self, JobsCommand.self, NotificationsCommand.self, EventsCommand.self, RefundsCommand.self,
        NoteCommand.self, ReportCommand.self, ProductCommand.self, AppCommand.self, BackfillCommand.self, ImportCommand.self,
        SSHSessionCommand.self,
    ]

    /// This build's version, as `iapdesk --version` says it with the store schema it opens.
    public static let version = "0.32.0"
}

/// What an operator's SSH session may run: the operator's commands alone, parsed as
/// `iapdesk` parses them.
struct OperatorCommands: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapdesk", subcommands: IAPDeskCommands.all.filter { SSHSessionCommand.allowed.contains($0.configuration.commandName ?? "") })

    /// Parses `arguments` among the operator's commands and runs the one chosen.
    static func run(_ arguments: [String]) async throws {
        var command = try parseAsRoot(arguments)
        if var asyncCommand = command as? AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
    }
}
