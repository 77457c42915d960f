import Foundation
import OrderDomain
import OrderStore
import Presentation
import SafeText
import Terminal

/// The console: a stack of screens over one session, drawn into a screen buffer each
/// frame. Keys go to the prompt when `/` or `:` is open, then to the global keys, then to
/// the screen on top. Tests drive it key by key on a `MemoryTerminal`; `run` does the same
/// on the real terminal, polling for keys and refreshing from the store so that changes
/// made by other operators show without a restart.
public final class ConsoleApp {
    public let session: ConsoleSession
    public private(set) var stack: [any ConsoleScreen]
    private let device: any TerminalDevice
    private var status = StoreStatus()
    private var message: (text: String, isError: Bool)?
    private var prompt: Prompt?
    private var dialog: Dialog?
    public private(set) var job: BackgroundJob?
    private var spinner = 0
    public private(set) var finished = false
    /// Why the console ended itself (a demo visit's idle or time limit), to say once the terminal is restored.
    public private(set) var endedBecause: String?

    public static let globalBindings = [
        KeyBinding(.up, .down, .character("k"), .character("j"), action: "move"),
        KeyBinding(.pageUp, .pageDown, .home, .end, action: "page, first, last"),
        KeyBinding(.enter, action: "open"),
        KeyBinding(.character("/"), action: "filter (state: product: acct: env: app: or an id)"),
        KeyBinding(.character(":"), action: "command (Tab completes a name, or an order id after :order)"),
        KeyBinding(.character("?"), action: "help"),
        KeyBinding(.escape, .character("q"), action: "back (q on the home screen quits); Esc also cancels bulk work"),
        KeyBinding(.control("c"), action: "quit"),
    ]

    public init(session: ConsoleSession, device: any TerminalDevice, home: any ConsoleScreen = OrdersScreen()) {
        self.session = session
        self.device = device
        stack = [home]
    }

    var top: any ConsoleScreen { stack[stack.count - 1] }

    var contentArea: Area { Chrome.content(rows: device.size.rows, cols: device.size.cols) }

    /// A message for the line above the footer (shown until the next key).
    public func show(_ text: String, isError: Bool = false) {
        message = (text, isError)
    }

    /// Loads the home screen and draws the first frame.
    public func open() async {
        session.productTypes = (try? await session.store.catalogue.types()) ?? [:]
        await refresh()
    }

    /// Reloads the header counts and the current screen, then draws.
    public func refresh() async {
        // Refreshed on a copy: the app's own state is never held across the awaits.
        var next = status
        do {
            try await next.refresh(session, thenLoad: top)
        } catch {
            message = (ErrorWords.text(error), true)
        }
        status = next
        draw()
    }

    /// Handles one key and draws the resulting frame.
    public func press(_ key: Key) async {
        if key == .control("c") {
            finished = true
            return
        }
        if key == .resize {
            device.invalidate()
            draw()
            return
        }
        if let dialog {
            await dialogKey(key, dialog)
            draw()
            return
        }
        if prompt != nil {
            await promptKey(key)
            draw()
            return
        }
        if key == .escape, let job, job.progress != nil {
            job.stop()
            message = ("stopping \(job.title): calls in flight finish and are recorded", false)
            draw()
            return
        }
        message = nil
        do {
            switch key {
            case .character("/") where top.filter != nil:
                prompt = Prompt(.filter, text: top.filter ?? "")
            case .character(":"):
                prompt = Prompt(.command)
            case .character("?"):
                if let help = top.help(session) { try await push(help) }
            case .escape:
                if stack.count > 1 {
                    stack.removeLast()
                    try await top.load(session)  // what it shows may have changed meanwhile
                } else if top.filter?.isEmpty == false {
                    try await top.apply(filter: "", session: session)
                }
            case .character("q"):
                if stack.count == 1 {
                    finished = true
                    return
                }
                stack.removeLast()
                try await top.load(session)
            default:
                if let run = top.command(for: key, session: session)?.run {
                    try await perform(try await run())
                } else {
                    try await perform(try await top.handle(key, session: session, area: contentArea))
                }
            }
        } catch {
            message = (ErrorWords.text(error), true)
        }
        draw()
    }

    private func perform(_ action: ScreenAction) async throws {
        switch action {
        case .none: break
        case .push(let screen): try await push(screen)
        case .pop: if stack.count > 1 { stack.removeLast() }
        case .quit: finished = true
        case .flash(let text, let isError): message = (text, isError)
        case .dialog(let dialog): self.dialog = dialog
        case .job(let job):
            if let running = self.job {
                message = ("\(running.title) is still running; try again when it is done", true)
                return
            }
            self.job = job
            job.start()
        }
    }

    private func dialogKey(_ key: Key, _ dialog: Dialog) async {
        switch key {
        case .escape:
            self.dialog = nil
        case .enter:
            if let missing = dialog.firstMissing() {
                dialog.error = missing
                return
            }
            do {
                let outcome = try await dialog.perform(dialog.values)
                self.dialog = nil
                switch outcome {
                case .message(let done): message = (done, false)
                case .job(let job): try await perform(.job(job))
                }
                await refresh()
            } catch {
                // The store refused (a conflict, already delivered, forbidden): say so, change nothing.
                dialog.error = ErrorWords.text(error)
            }
        default:
            dialog.edit(key)
        }
    }

    /// Picks up a finished background job: its result becomes the message and the screen
    /// reloads. Called by the loop on every turn; cheap when nothing finished.
    public func tick() async {
        spinner += 1
        guard let job else { return }
        if let result = job.result {
            self.job = nil
            await refresh()
            message = result
        }
        draw()
    }

    /// Waits for the running job and picks up its result (tests).
    public func settle() async {
        await job?.wait()
        await tick()
    }

    private func push(_ screen: any ConsoleScreen) async throws {
        try await screen.load(session)
        stack.append(screen)
    }

    private func promptKey(_ key: Key) async {
        guard var typed = prompt else { return }
        switch key {
        case .escape:
            prompt = nil
        case .enter:
            prompt = nil
            do {
                switch typed.kind {
                case .filter:
                    try await top.apply(filter: typed.editor.text, session: session)
                    for action in top.afterFilter() { try await perform(action) }
                case .command: try await run(command: typed.editor.text)
                }
            } catch {
                message = (ErrorWords.text(error), true)
            }
        case .tab where typed.kind == .command:
            await typed.complete(session)
            prompt = typed
        default:
            guard await typed.edit(key, session: session) else { return }
            prompt = typed
            // Filters narrow as you type; a lookup by id runs on Enter, once the id is whole.
            if typed.kind == .filter, FilterQuery(typed.editor.text).lookup == nil {
                do { try await top.apply(filter: typed.editor.text, session: session) } catch { message = (ErrorWords.text(error), true) }
            }
        }
    }

    /// The screen a list command opens (nil for the commands that are no list).
    private static func list(_ command: ConsoleCommand) -> (any ConsoleScreen)? {
        switch command {
        case .stuck: StuckScreen()
        case .disputes(let store): Lists.disputes(store: store)
        case .orphans: Lists.orphans()
        case .acknowledgements: Lists.acknowledgements()
        case .conflicts: Lists.conflicts()
        case .audit: Lists.audit()
        case .notifications(let store): Lists.notifications(store: store)
        case .jobs: Lists.jobs()
        case .undelivered: Lists.undelivered()
        case .refunds(let all): Lists.refunds(all: all)
        default: nil
        }
    }

    private func run(command text: String) async throws {
        let name = text.split(separator: " ").first.map(String.init) ?? ""
        if case .failure = ConsoleCommand.parse(text), let alias = session.aliases[name] {
            // An alias never shadows a command: it is read only where no command matched.
            if alias.hasPrefix(":") { return try await run(command: String(alias.dropFirst())) }
            stack.removeSubrange(1...)
            try await top.apply(filter: alias, session: session)
            message = (":\(name) is \(alias)", false)
            return
        }
        let parsed = ConsoleCommand.parse(text)
        if case .success(let command) = parsed, let list = Self.list(command) {
            // A list replaces whatever was open above the home screen.
            stack.removeSubrange(1...)
            try await push(list)
            return
        }
        switch parsed {
        case .failure(let error):
            message = (error.description, true)
        case .success(.quit):
            finished = true
        case .success(.orders):
            stack.removeSubrange(1...)
            try await top.apply(filter: "", session: session)
        case .success(.stuck), .success(.disputes), .success(.orphans), .success(.acknowledgements), .success(.conflicts), .success(.audit),
            .success(.notifications), .success(.jobs), .success(.undelivered), .success(.refunds):
            break  // lists, opened above
        case .success(.account(let id)):
            try await push(AccountScreen(accountId: id))
        case .success(.subscription(let otid)):
            try await push(SubscriptionScreen(originalTransactionId: otid))
        case .success(.xray(let otid)):
            try await push(SectionsScreen.xray(otid))
        case .success(.order(let id)):
            let found = try await session.store.orders.lookup(id)
            if found.isEmpty, Orders.looksLikeAppleOrderId(id) {
                let finding = try await AppleOrderSearch.find(id, session: session)
                if let screen = AppleOrderSearch.screen(for: finding) { try await push(screen) }
                message = AppleInvoicePresentation.summary(finding)
                return
            }
            switch found.count {
            case 0: message = ("nothing matches \(id)", true)
            case 1: try await push(OrderDetailScreen(orderId: found[0].orderId))
            default:
                stack.removeSubrange(1...)
                try await top.apply(filter: id, session: session)
                message = ("\(found.count) orders match \(id)", false)
            }
        case .success(.export(let path)):
            guard session.visit == nil else {
                message = ("a demo visit saves no files; everything here is deleted when you leave", true)
                return
            }
            guard let export = top.export(theme: session.theme) else {
                message = ("this screen has nothing to export; open a list or a page", true)
                return
            }
            try export.write(to: path)
            message = ("saved \(export.rowCount) \(export.isTable ? "rows" : "lines") to \(path)", false)
        case .success(.theme(let name)):
            if session.visit != nil, name.contains("/") || name.hasSuffix(".toml") {
                message = ("a demo visit uses the themes installed with it, by name (default, mono, …)", true)
                return
            }
            let (theme, error) = ThemeLoader.loadOrFallback(name)
            if let error {
                message = (ErrorWords.text(error), true)
            } else {
                session.theme = theme
                message = ("theme \(theme.name)", false)
            }
        }
    }

    /// Renders the whole frame and hands it to the device.
    func draw() {
        let (rows, cols) = device.size
        var screen = ScreenBuffer(rows: rows, cols: cols)
        guard rows >= 6, cols >= 20 else {
            screen.write(cols >= 18 ? "iapdesk: too small" : "too small", row: 0, col: 0)
            device.present(screen)
            return
        }
        Chrome.header(&screen, session: session, counts: status.counts, workers: status.workers, title: top.title)
        top.render(into: &screen, area: contentArea, theme: session.theme)
        // While a command is typed, the footer says what it may become instead of the screen's keys.
        let suggestions = prompt?.suggestions ?? []
        let footer = suggestions.isEmpty ? top.bindings(session) : [KeyBinding(.tab, action: Prompt.fitting(suggestions, width: cols - 10))]
        let status = message ?? job?.statusLine(spinner: spinner) ?? self.status.banner
        Chrome.footer(&screen, theme: session.theme, bindings: footer, message: status, prompt: prompt?.line)
        dialog?.render(into: &screen, theme: session.theme)
        device.present(screen)
    }

    /// The real loop: keys as they come, a refresh every `refreshEvery` so that other
    /// operators' changes appear, until q or Ctrl-C.
    public func run(refreshEvery: Duration = .seconds(2)) async {
        await open()
        var lastRefresh = ContinuousClock.now
        var lastSpin = ContinuousClock.now
        var lastKey = ContinuousClock.now
        // The idle warning this loop put up, so it may replace it (its countdown) but no other message.
        var idleWarning: String?
        while !finished {
            if let key = device.pollKey() {
                lastKey = .now
                await press(key)
                continue
            }
            if let visit = session.visit {
                if let ending = visit.ending(now: .now, lastKey: lastKey) {
                    endedBecause = ending
                    return
                }
                if let warning = visit.idleWarning(now: .now, lastKey: lastKey), message == nil || message?.text == idleWarning {
                    message = (warning, true)
                    idleWarning = warning
                }
            }
            if ContinuousClock.now - lastRefresh >= refreshEvery, prompt == nil, dialog == nil {
                await refresh()
                lastRefresh = ContinuousClock.now
            }
            if job != nil, ContinuousClock.now - lastSpin >= .milliseconds(100) {
                await tick()
                lastSpin = ContinuousClock.now
            }
            // Asleep until a key comes; awake every 50 ms at the latest for the spinner,
            // the refresh and a resize (a resize wakes nothing, so that is its latency).
            await device.waitForInput(upTo: .milliseconds(50))
        }
    }
}
