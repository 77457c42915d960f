import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// What operators read in `--help`, kept as text files beside this test, one per command:
/// a change to a command's words, options or defaults shows up in review as a change to
/// its file. `IAPDESK_RECORD_SNAPSHOTS=1 swift test --filter HelpSnapshot` writes them anew.
@Suite("--help snapshots")
struct HelpSnapshotTests {
    static let snapshots = Snapshots("Snapshots/help")

    /// Every command and subcommand, with its path of names ("order reverify").
    static func commands(_ command: any ParsableCommand.Type = IAPDesk.self, path: [String] = []) -> [(path: [String], type: any ParsableCommand.Type)] {
        let name = command.configuration.commandName ?? command._commandName
        let here = path + [name]
        return [(here, command)] + command.configuration.subcommands.flatMap { commands($0, path: here) }
    }

    @Test("Every command's --help matches its snapshot, and every snapshot still has its command")
    func helpSnapshots() throws {
        var expected = Set<String>()
        for (path, type) in Self.commands() {
            let file = path.joined(separator: "-") + ".txt"
            expected.insert(file)
            try Self.snapshots.check(IAPDesk.helpMessage(for: type, columns: 100) + "\n", file, what: "`\(path.joined(separator: " ")) --help`")
        }
        Self.snapshots.expectOnly(expected)
    }
}
