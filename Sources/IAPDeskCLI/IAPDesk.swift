import ArgumentParser
import Foundation
import OrderStore
import Presentation

/// The `iapdesk` command: every console action is also a command here.
public struct IAPDesk: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "iapdesk",
        abstract: "A console for Apple In-App Purchase orders: find, verify, grant, settle ownership. Everything audited.",
        version: "iapdesk \(IAPDesk.version) (store schema \(OrderStore.schemaVersion))",
        subcommands: [
            DemoCommand.self, InitCommand.self, OpenConsoleCommand.self, OrderCommand.self, StuckCommand.self, OrphansCommand.self, SubscriptionCommand.self,
            AccountCommand.self,
            AuditCommand.self, OperatorCommand.self, ReceiptCommand.self, SeedCommand.self, ConfigCommand.self, SimulatorCommand.self,
            PlaySimulatorCommand.self, GoogleCommand.self,
            TerminalCheckCommand.self, ServeCommand.self,
            JobsCommand.self, NotificationsCommand.self, EventsCommand.self, RefundsCommand.self, NoteCommand.self, ReportCommand.self, ProductCommand.self,
            AppCommand.self, BackfillCommand.self, ImportCommand.self,
            SSHSessionCommand.self, DemoSessionCommand.self,
        ])

    public init() {}

    /// This build's version, as `iapdesk --version` says it with the store schema it opens.
    public static let version = "0.32.0"
}

extension IAPDesk {
    /// Parses the process arguments and runs the chosen command, awaiting async ones.
    /// (From a `main.swift`, `main()` resolves to ArgumentParser's synchronous overload.)
    /// Errors are printed with every line sanitized: an error may quote a typed id or a
    /// stored string, and neither may drive the terminal. A command's own validation error
    /// (raised while it runs) says what is wrong without the root's usage line.
    public static func runFromCommandLine() async {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(nil)
        } catch {
            finish(message: fullMessage(for: error), code: exitCode(for: error))
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            finish(message: "Error: \(error.message)", code: .validationFailure)
        } catch {
            // The store's own errors with what to do next; ArgumentParser's for the rest.
            if DatabaseErrorText.describe(error) != nil || ErrorWords.nextStep(error) != nil {
                finish(message: "Error: \(ErrorWords.text(error))", code: .failure)
            }
            finish(message: fullMessage(for: error), code: exitCode(for: error))
        }
    }

    /// Help and version go to standard output with success; errors to standard error.
    private static func finish(message: String, code: ExitCode) -> Never {
        if !message.isEmpty {
            let safe = message.split(separator: "\n", omittingEmptySubsequences: false).map { Output.safe(String($0)) }.joined(separator: "\n")
            (code == .success ? FileHandle.standardOutput : FileHandle.standardError).write(Data((safe + "\n").utf8))
        }
        Foundation.exit(code.rawValue)
    }

    public static func run(_ arguments: [String]?) async throws {
        var command = try parseAsRoot(arguments)
        if var asyncCommand = command as? AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
    }
}
