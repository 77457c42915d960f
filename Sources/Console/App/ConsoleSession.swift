import OrderDomain
import OrderStore
import Receipts

/// What every screen works with: the store, who is at the keyboard, and how to draw.
public final class ConsoleSession {
    public let store: OrderStore
    public let actor: Operator
    /// `--readonly`, or a viewer: no action that changes anything is offered.
    public var readOnly: Bool { !actor.role.mayAct }
    public var theme: Theme
    /// How the header names the store (the password never shows).
    public let storeLabel: String
    public let verifier: (any ReceiptVerifier)?
    /// What answers Apple's refund requests and extends subscriptions: the App Store Server
    /// API client, nil without its key (the actions then say what is missing).
    public let appleActions: (any AppleActions)?
    /// What acknowledges Google Play purchases: the Play Developer API client, nil without
    /// `[google_play]` (the actions then say what is missing).
    public let playActions: (any PlayActions)?
    /// Roots for the receipt screen's signature verdicts.
    public let trust: TrustRoots
    /// Reads Apple's stored answers back as the rules saw them, for the receipt screen; nil,
    /// the screen says so.
    public let answers: (any StoredAnswerReader)?
    /// (name, text) lines the help screen shows under "This session" (the demo's URLs).
    public let notes: [(String, String)]
    /// A visitor's own demo over SSH: a banner, limits, and no file read or written on their word.
    public let visit: DemoVisit?
    /// `[console.aliases]`: `:NAME` opens the order list with the filter, or runs the `:command`.
    public var aliases: [String: String] = [:]
    /// Each product's type, loaded when the console opens: `o` is offered on subscriptions only.
    public var productTypes: [String: ProductType] = [:]
    /// What "now" is for ages (oldest stuck, due since, worker liveness): the wall clock, or a
    /// fixed instant for a frame that must read the same on every run (the screen snapshots).
    public let clock: @Sendable () -> Millis

    public init(
        store: OrderStore, actor: Operator, theme: Theme = .builtIn, storeLabel: String, verifier: (any ReceiptVerifier)? = nil,
        appleActions: (any AppleActions)? = nil, playActions: (any PlayActions)? = nil, trust: TrustRoots = TrustRoots(),
        answers: (any StoredAnswerReader)? = nil, notes: [(String, String)] = [], visit: DemoVisit? = nil,
        clock: @escaping @Sendable () -> Millis = { .now() }
    ) {
        self.clock = clock
        self.trust = trust
        self.answers = answers
        self.notes = notes
        self.visit = visit
        self.store = store
        self.actor = actor
        self.theme = theme
        self.storeLabel = storeLabel
        self.verifier = verifier
        self.appleActions = appleActions
        self.playActions = playActions
    }
}
