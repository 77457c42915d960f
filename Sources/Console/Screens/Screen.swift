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
    /// The keys that work here for this operator (actions their role may not use are left out).
    func bindings(_ session: ConsoleSession) -> [KeyBinding]
    /// Fetches what the screen shows; called when it is first shown and on refresh.
    func load(_ session: ConsoleSession) async throws
    func render(into screen: inout ScreenBuffer, area: Area, theme: Theme)
    func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction
    /// The text `/` filters this screen with (nil when the screen does not filter).
    var filter: String? { get }
    func apply(filter: String, session: ConsoleSession) async throws
}

public extension ConsoleScreen {
    var filter: String? { nil }
    func apply(filter: String, session: ConsoleSession) async throws {}
}

/// A rectangle of the screen, in cells.
public struct Area: Sendable, Equatable {
    public var top: Int
    public var left: Int
    public var rows: Int
    public var cols: Int
}
