import OrderDomain
import OrderStore
import Terminal

/// A key the current screen answers to, for the footer and the help screen.
public struct KeyBinding: Sendable, Equatable {
    public var keys: [Key]
    public var action: String
    public init(_ keys: Key..., action: String) {
        self.keys = keys
        self.action = action
    }
    public var label: String { keys.map(\.label).joined(separator: "/") }
}

/// One row of a screen's key table: its keys and name, who may use it, whether it applies
/// here now, and what it does. The table is the one place a screen names a key: the footer
/// offers the rows this operator may use now, `?` lists every row with who may, and a key
/// runs its row. Rows without `run` are the screen's own moving and scrolling.
public struct KeyCommand {
    public let binding: KeyBinding
    /// The least role that may use it: viewers (everyone), support (and admins), or admins.
    public let who: Role
    /// Whether it applies now: an item is selected, the order's state allows it for this
    /// operator, Apple's key is configured…
    public let available: Bool
    let run: (() async throws -> ScreenAction)?

    init(_ binding: KeyBinding, who: Role = .viewer, available: Bool = true, run: (() async throws -> ScreenAction)? = nil) {
        self.binding = binding
        self.who = who
        self.available = available
        self.run = run
    }

    /// Offered to this operator now (read-only sessions act as viewers).
    func usable(by session: ConsoleSession) -> Bool { available && session.actor.role >= who }

    /// Scrolling a page of text, going back, help: rows every text screen ends with.
    static var reading: [KeyCommand] {
        [
            KeyCommand(KeyBinding(.escape, action: "back")), KeyCommand(KeyBinding(.up, .down, action: "scroll")),
            KeyCommand(KeyBinding(.character("?"), action: "help")),
        ]
    }
}

/// What handling a key asks the app to do.
public enum ScreenAction {
    case none
    case push(any ConsoleScreen)
    case pop
    case quit
    case flash(String, isError: Bool)
    /// Open a dialog for a dangerous action.
    case dialog(Dialog)
    /// Run slow work in the background; its result becomes the message.
    case job(BackgroundJob)
}

/// One screen of the console. Rendering is pure: it turns the screen's state into cells.
/// Loading and key handling may query the store.
public protocol ConsoleScreen: AnyObject {
    var title: String { get }
    /// The screen's key table, every row, for this operator and what is on screen now.
    func commands(_ session: ConsoleSession) -> [KeyCommand]
    /// Fetches what the screen shows; called when it is first shown and on refresh.
    func load(_ session: ConsoleSession) async throws
    func render(into screen: inout ScreenBuffer, area: Area, theme: Theme)
    /// A key no row of the table runs: moving, scrolling.
    func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction
    /// The text `/` filters this screen with (nil when the screen does not filter).
    var filter: String? { get }
    func apply(filter: String, session: ConsoleSession) async throws
    /// What a whole filter, once applied, has to say or open beyond the list itself (words
    /// that meant nothing, where an Apple or Google order id led); none by default.
    func afterFilter() -> [ScreenAction]
    /// What `:export` saves of it; nil when it has nothing to export.
    func export(theme: Theme) -> ScreenExport?
    /// The screen `?` opens over it: its keys, for this operator; nil on help itself.
    func help(_ session: ConsoleSession) -> (any ConsoleScreen)?
}

public extension ConsoleScreen {
    var filter: String? { nil }
    func apply(filter: String, session: ConsoleSession) async throws {}
    func afterFilter() -> [ScreenAction] { [] }
    func export(theme: Theme) -> ScreenExport? { nil }
    func help(_ session: ConsoleSession) -> (any ConsoleScreen)? { HelpScreen(for: self, session: session) }

    /// The keys the footer offers: the rows this operator may use now, in the table's order.
    func bindings(_ session: ConsoleSession) -> [KeyBinding] { commands(session).filter { $0.usable(by: session) }.map(\.binding) }

    /// The row `key` runs for this operator now, if any.
    func command(for key: Key, session: ConsoleSession) -> KeyCommand? {
        commands(session).first { $0.run != nil && $0.binding.keys.contains(key) && $0.usable(by: session) }
    }
}

/// A rectangle of the screen, in cells.
public struct Area: Sendable, Equatable {
    public var top: Int
    public var left: Int
    public var rows: Int
    public var cols: Int
}
