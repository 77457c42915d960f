import OrderDomain
import OrderStore

/// The `:` commands, parsed.
public enum ConsoleCommand: Equatable, Sendable {
    case orders
    case stuck
    /// Both stores' R8 decisions to review, or one store's.
    case disputes(Marketplace?)
    case orphans
    /// Google Play purchases paid and not yet acknowledged.
    case acknowledgements
    case conflicts
    case audit
    /// Both stores' notifications, or one store's.
    case notifications(Marketplace?)
    case jobs
    case undelivered
    /// Open requests; with `all`, the answered, refused and missed ones too.
    case refunds(all: Bool)
    case order(String)
    case account(String)
    case subscription(String)
    case xray(String)
    case theme(String)
    case export(String)
    case quit

    /// One `:` command: the names it answers to (the first is its own), its usage and what
    /// it does for help, and how its argument makes the command. Help, Tab and the parser
    /// all read this table.
    struct Spec: Sendable {
        var names: [String]
        var argument: String?
        var summary: String
        var make: @Sendable (String) -> Result<ConsoleCommand, CommandError>

        var usage: String { ":" + names[0] + (argument.map { " \($0)" } ?? "") }

        /// A command that takes nothing.
        init(_ names: [String], _ summary: String, _ command: ConsoleCommand) {
            self.names = names
            self.summary = summary
            make = { argument in
                argument.isEmpty ? .success(command) : .failure(CommandError(":\(names[0]) takes nothing"))
            }
        }

        /// A command that needs its argument (`what` names it in the error).
        init(_ names: [String], _ argument: String, needs what: String, _ summary: String, _ command: @escaping @Sendable (String) -> ConsoleCommand) {
            self.names = names
            self.argument = argument
            self.summary = summary
            make = { text in text.isEmpty ? .failure(CommandError(":\(names[0]) needs \(what)")) : .success(command(text)) }
        }

        init(_ names: [String], argument: String, _ summary: String, make: @escaping @Sendable (String) -> Result<ConsoleCommand, CommandError>) {
            self.names = names
            self.argument = argument
            self.summary = summary
            self.make = make
        }
    }

    static let specs: [Spec] = [
        Spec(["orders", "o"], "the order list (home)", .orders),
        Spec(["stuck", "s"], "paid, undelivered orders past the threshold, oldest first", .stuck),
        Spec(["disputes"], argument: "[STORE]", "R8 decisions to review, or STORE's alone (apple, google)") { argument in
            guard !argument.isEmpty else { return .success(.disputes(nil)) }
            guard let store = Marketplace(word: argument) else { return .failure(CommandError(":disputes takes nothing, apple or google")) }
            return .success(.disputes(store))
        },
        Spec(["orphans"], "purchases a store knows that no order claims", .orphans),
        Spec(
            ["acks", "acknowledgements"], "Google Play purchases not yet acknowledged, soonest refund deadline first; a acknowledges one now",
            .acknowledgements),
        Spec(["conflicts"], "hand deliveries whose purchase paid another order too (R7)", .conflicts),
        Spec(["audit"], "the audit log, newest first", .audit),
        Spec(
            ["notifications", "notif"], argument: "[STORE]",
            "what both stores told us, or STORE's alone (apple, google)"
        ) { argument in
            guard !argument.isEmpty else { return .success(.notifications(nil)) }
            guard let store = Marketplace(word: argument) else { return .failure(CommandError(":notifications takes nothing, apple or google")) }
            return .success(.notifications(store))
        },
        Spec(["jobs"], "the worker's queue; dead jobs first, R requeues one", .jobs),
        Spec(["undelivered", "events"], "events the game has not confirmed, oldest first; R resends one", .undelivered),
        Spec(
            ["refunds", "refund"], argument: "[all]",
            "Apple's refund requests waiting for an answer, soonest deadline first; a answers one; all: sent, refused and missed too"
        ) { argument in
            switch argument {
            case "": .success(.refunds(all: false))
            case "all": .success(.refunds(all: true))
            default: .failure(CommandError(":refunds takes nothing, or all"))
            }
        },
        Spec(["account", "acct"], "ID", needs: "an id", "an account: orders, grants, subscriptions, flags") { .account($0) },
        Spec(
            ["otid", "subscription", "sub"], "ID", needs: "an original transaction id", "a subscription by original transaction id: chain, owners, R8 verdict"
        ) {
            .subscription($0)
        },
        Spec(
            ["xray", "x"], "ID", needs: "an original transaction id",
            "an original transaction in time: periods, orders, notifications, owners, events, audit"
        ) { .xray($0) },
        Spec(["order"], "ID", needs: "an id", "open an order (any id: order, transaction, original transaction, account)") { .order($0) },
        Spec(["theme"], "NAME", needs: "a name", "switch the theme (default, light, high-contrast, mono, or a path)") { .theme($0) },
        Spec(["export", "w"], "FILE", needs: "a file name", "save the screen: a list as CSV, a page as text (a new file, owner-only)") { .export($0) },
        Spec(["q", "quit"], "quit", .quit),
    ]

    /// For help: every command with its usage and what it does.
    public static var all: [(usage: String, summary: String)] { specs.map { ($0.usage, $0.summary) } }

    /// Every command's name, as Tab completes them.
    public static var names: [String] { specs.map { $0.names[0] } }

    /// The command `text` names, or what is wrong with it.
    public static func parse(_ text: String) -> Result<ConsoleCommand, CommandError> {
        let words = text.split(separator: " ").map(String.init)
        guard let name = words.first else { return .failure(CommandError("type a command; ? lists them")) }
        guard let spec = specs.first(where: { $0.names.contains(name) }) else { return .failure(CommandError("no command :\(name); ? lists them")) }
        return spec.make(words.dropFirst().joined(separator: " "))
    }
}

public struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
