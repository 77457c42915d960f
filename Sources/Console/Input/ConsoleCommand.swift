/// The `:` commands, parsed.
public enum ConsoleCommand: Equatable, Sendable {
    case orders
    case stuck
    case disputes
    case orphans
    case conflicts
    case audit
    case notifications
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

    /// For help: every command with its usage and what it does.
    public static let all: [(usage: String, summary: String)] = [
        (":orders", "the order list (home)"),
        (":stuck", "paid, undelivered orders past the threshold, oldest first"),
        (":disputes", "R8 ownership decisions to review"),
        (":orphans", "transactions Apple knows that no order claims"),
        (":conflicts", "hand deliveries whose purchase paid another order too (R7)"),
        (":audit", "the audit log, newest first"),
        (":notifications", "what Apple told us: type, verdict, what applying it did"),
        (":jobs", "the worker's queue; dead jobs first, R requeues one"),
        (":undelivered", "events the game has not confirmed, oldest first; R resends one"),
        (":refunds [all]", "Apple's refund requests waiting for an answer, soonest deadline first; a answers one; all: sent, refused and missed too"),
        (":account ID", "an account: orders, grants, subscriptions, flags"),
        (":otid ID", "a subscription by original transaction id: chain, owners, R8 verdict"),
        (":xray ID", "an original transaction in time: periods, orders, notifications, owners, events, audit"),
        (":order ID", "open an order (any id: order, transaction, original transaction, account)"),
        (":theme NAME", "switch the theme (default, light, high-contrast, mono, or a path)"),
        (":export FILE", "save the screen: a list as CSV, a page as text (a new file, owner-only)"),
        (":q", "quit"),
    ]

    /// Every command's name, as Tab completes them.
    public static var names: [String] { all.compactMap { $0.usage.dropFirst().split(separator: " ").first.map(String.init) } }

    /// Nil with a message when the text is not a command.
    public static func parse(_ text: String) -> Result<ConsoleCommand, CommandError> {
        let words = text.split(separator: " ").map(String.init)
        guard let name = words.first else { return .failure(CommandError("type a command; ? lists them")) }
        let argument = words.dropFirst().joined(separator: " ")
        switch name {
        case "orders", "o": return .success(.orders)
        case "stuck", "s": return .success(.stuck)
        case "disputes": return .success(.disputes)
        case "orphans": return .success(.orphans)
        case "conflicts": return .success(.conflicts)
        case "audit": return .success(.audit)
        case "notifications", "notif": return .success(.notifications)
        case "jobs": return .success(.jobs)
        case "undelivered", "events": return .success(.undelivered)
        case "refunds", "refund":
            switch argument {
            case "": return .success(.refunds(all: false))
            case "all": return .success(.refunds(all: true))
            default: return .failure(CommandError(":refunds takes nothing, or all"))
            }
        case "account", "acct":
            return argument.isEmpty ? .failure(CommandError(":account needs an id")) : .success(.account(argument))
        case "otid", "subscription", "sub":
            return argument.isEmpty ? .failure(CommandError(":otid needs an original transaction id")) : .success(.subscription(argument))
        case "xray", "x":
            return argument.isEmpty ? .failure(CommandError(":xray needs an original transaction id")) : .success(.xray(argument))
        case "order":
            return argument.isEmpty ? .failure(CommandError(":order needs an id")) : .success(.order(argument))
        case "theme":
            return argument.isEmpty ? .failure(CommandError(":theme needs a name")) : .success(.theme(argument))
        case "export", "w":
            return argument.isEmpty ? .failure(CommandError(":export needs a file name")) : .success(.export(argument))
        case "q", "quit": return .success(.quit)
        default: return .failure(CommandError("no command :\(name); ? lists them"))
        }
    }
}

public struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
