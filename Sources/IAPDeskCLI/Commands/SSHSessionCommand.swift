import ArgumentParser
import Foundation

/// The command an operator's SSH session is forced to (the Security article's recipe: sshd's
/// `ForceCommand` runs it through sudo as the service account that alone can read the
/// store's credentials). What the operator typed after the host arrives in
/// `SSH_ORIGINAL_COMMAND`; it is split like a shell would, with no expansion at all, and
/// only the operator's commands run. No words: the console.
struct SSHSessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssh-session",
        abstract: """
            For sshd's ForceCommand through sudo: runs the command typed after the host (SSH_ORIGINAL_COMMAND, \
            quoted as in a shell, never expanded), one of \(allowed.sorted().joined(separator: ", ")); the console when none.
            """)

    /// What an operator does; serving, seeding, the simulator and the demo are not theirs.
    static let allowed: Set<String> = [
        "console", "order", "stuck", "orphans", "subscription", "audit", "operator", "receipt", "jobs",
        "notifications", "events", "refunds", "note", "report", "product", "backfill", "import",
    ]

    func run() async throws {
        let typed = ProcessInfo.processInfo.environment["SSH_ORIGINAL_COMMAND"] ?? ""
        let words = try ShellWords.split(typed)
        guard let first = words.first else { return try await OperatorCommands.run(["console"]) }
        guard Self.allowed.contains(first) else {
            throw ValidationError("over SSH, iapdesk runs \(Self.allowed.sorted().joined(separator: ", ")); not \(first)")
        }
        try await OperatorCommands.run(words)
    }
}

/// Splits a command line into words as POSIX sh does for quoting (whitespace, '…', "…",
/// backslash), and does nothing else: no variables, globs, substitutions or operators.
enum ShellWords {
    struct Unterminated: Error, CustomStringConvertible {
        var description: String { "the command has an unterminated quote" }
    }

    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(word) }
                (word, inWord) = ("", false)
            case "'":
                inWord = true
                while true {
                    guard let next = characters.next() else { throw Unterminated() }
                    if next == "'" { break }
                    word.append(next)
                }
            case "\"":
                inWord = true
                while true {
                    guard let next = characters.next() else { throw Unterminated() }
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = characters.next() else { throw Unterminated() }
                        if !"\"\\$`".contains(escaped) { word.append("\\") }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
            case "\\":
                inWord = true
                if let escaped = characters.next() { word.append(escaped) }
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
