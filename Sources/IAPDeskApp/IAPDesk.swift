import ArgumentParser
import Foundation
import IAPDeskCLI
import OrderDomain
import OrderStore
import Presentation

/// The `iapdesk` command as shipped: the operator's and the studio's commands (IAPDeskCLI,
/// which links no simulator) and, beside them, the demo, the simulators and synthetic
/// history (this module, which links the simulators and the reference game).
public struct IAPDesk: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "iapdesk",
        abstract: "A console for in-app purchase orders (the App Store and Google Play): find, verify, grant, settle ownership. Everything audited.",
        version: "iapdesk \(IAPDeskCommands.version) (store schema \(OrderStore.schemaVersion))",
        subcommands: [DemoCommand.self] + IAPDeskCommands.all + [
            SeedCommand.self, SimulatorCommand.self, PlaySimulatorCommand.self, DemoSessionCommand.self,
        ])

    public init() {}
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
            if ErrorWords.knows(error) || ErrorWords.nextStep(error) != nil {
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
