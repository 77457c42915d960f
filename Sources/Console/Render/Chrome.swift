import Foundation
import OrderDomain
import OrderStore
import SafeText
import Terminal

/// The frame around every screen, as k9s has it: two header rows (store, operator and role,
/// READ-ONLY, counts per state, oldest stuck age), the screen's title bar, a message or
/// prompt line, and a footer naming the keys that work here.
enum Chrome {
    static let headerRows = 3
    static let footerRows = 2

    static func content(rows: Int, cols: Int) -> Area {
        Area(top: headerRows, left: 0, rows: max(0, rows - headerRows - footerRows), cols: cols)
    }

    static func header(_ screen: inout ScreenBuffer, session: ConsoleSession, counts: StoreCounts?, workers: WorkerStatus? = nil, title: String) {
        let theme = session.theme
        screen.fill(row: 0, style: theme[.header])
        // Who is at the keyboard is right-aligned and never cut; the store name gets the rest.
        let who = "\(session.actor.name) (\(session.actor.role.rawValue)) "
        let badge = session.visit?.badge() ?? (session.store.isReplica ? " REPLICA " : session.readOnly ? " READ-ONLY " : "")
        let right = min(screen.cols, TextWidth.of(Sanitizer.sanitize(who)) + TextWidth.of(badge))
        let storeWidth = screen.write(" iapdesk  \(session.storeLabel)", row: 0, col: 0, maxWidth: max(0, screen.cols - right - 1), style: theme[.header])
        if let workers, let text = workerText(workers, now: session.clock()) {
            screen.write(
                "  " + text, row: 0, col: storeWidth, maxWidth: max(0, screen.cols - right - 1 - storeWidth),
                style: workers.live == 0 || workers.queue.dead > 0 ? theme[.headerBadge] : theme[.header])
        }
        let col = screen.cols - right
        let used = screen.write(badge, row: 0, col: col, style: theme[.headerBadge])
        screen.write(who, row: 0, col: col + used, style: theme[.header])
        if let counts {
            var col = 1
            for item in fitting(countItems(counts), width: screen.cols - 1) {
                col += screen.write(item.text, row: 1, col: col, style: theme[item.role]) + 2
            }
        }
        screen.fill(row: 2, style: theme[.tableHeader])
        screen.write(" \(title)", row: 2, col: 0, style: theme[.tableHeader])
    }

    static func footer(_ screen: inout ScreenBuffer, theme: Theme, bindings: [KeyBinding], message: (text: String, isError: Bool)?, prompt: (String, String)?) {
        let promptRow = screen.rows - 2, footerRow = screen.rows - 1
        if let (sigil, text) = prompt {
            let used = screen.write("\(sigil)\(text)", row: promptRow, col: 0, style: theme[.row])
            screen.write("█", row: promptRow, col: used, style: theme[.muted])
        } else if let message {
            screen.write(message.text, row: promptRow, col: 1, style: message.isError ? theme[.flashError] : theme[.flashInfo])
        }
        var col = 0
        for binding in footerBindings(bindings, cols: screen.cols) {
            let key = " \(binding.label) "
            guard col + footerWidth(binding) < screen.cols else { break }
            col += screen.write(key, row: footerRow, col: col, style: theme[.footerKey])
            col += screen.write(" \(binding.action) ", row: footerRow, col: col, style: theme[.footerText])
        }
    }

    /// One count of the header's second row: its text, its style, and how much it matters
    /// when not all fit (lower first).
    struct CountItem: Equatable {
        var text: String
        var role: ThemeRole
        var priority: Int
    }

    /// The header's counts in reading order: stuck first (what support opens the console
    /// for), Apple's refund requests waiting for an answer, events the game has not
    /// confirmed, the states, sandbox purchases in production.
    static func countItems(_ counts: StoreCounts) -> [CountItem] {
        let stuck = "stuck \(StoreCounts.text(counts.stuck))" + (counts.oldestStuckAge.map { " (oldest \(age($0)))" } ?? "")
        var items = [CountItem(text: stuck, role: counts.stuck > 0 ? .flashError : .muted, priority: 0)]
        // On a replica what the screen shows is this far behind the primary.
        if let lag = counts.replicationLag {
            items.insert(CountItem(text: "lag \(lag < 1_000 ? "0s" : age(lag))", role: lag > 10_000 ? .flashError : .muted, priority: 0), at: 0)
        }
        if counts.openRefundRequests > 0 {
            let next = counts.nextRefundDueIn.map { " (next due in \(age($0)))" } ?? ""
            items.append(CountItem(text: "refunds \(StoreCounts.text(counts.openRefundRequests))\(next)", role: .flashError, priority: 1))
        }
        if counts.gameNotTold > 0 { items.append(CountItem(text: "not told \(StoreCounts.text(counts.gameNotTold))", role: .flashError, priority: 1)) }
        for state in OrderState.allCases {
            let n = counts.byState[state, default: 0]
            guard n > 0 else { continue }
            items.append(CountItem(text: "\(shortName(state)) \(compact(n))", role: .state(state), priority: priority(of: state)))
        }
        if counts.sandboxInProduction > 0 {
            items.append(CountItem(text: "sandbox \(StoreCounts.text(counts.sandboxInProduction))", role: .muted, priority: 8))
        }
        return items
    }

    /// States that want someone come first; the settled ones give way on a narrow terminal.
    static func priority(of state: OrderState) -> Int {
        switch state {
        case .verifyRetry, .disputed: 2
        case .rejected, .receiptReceived: 3
        case .pendingPayment, .verified: 4
        case .refunded: 5
        case .delivered: 9
        }
    }

    /// The items that fit `width` cells whole (two apart), the most important first, shown in
    /// reading order: a count is left out, never cut.
    static func fitting(_ items: [CountItem], width: Int) -> [CountItem] {
        var used = 0
        var kept = Set<Int>()
        for (index, item) in items.enumerated().sorted(by: { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }) {
            let cost = TextWidth.of(item.text) + (kept.isEmpty ? 0 : 2)
            guard used + cost <= width else { continue }
            used += cost
            kept.insert(index)
        }
        return items.enumerated().filter { kept.contains($0.offset) }.map(\.element)
    }

    static func footerWidth(_ binding: KeyBinding) -> Int { TextWidth.of(binding.label) + TextWidth.of(binding.action) + 4 }

    /// The keys the footer names in `cols` cells: all when they fit; otherwise the keys every
    /// screen has (back, scroll, help, quit; the help screen lists them) give way first, so
    /// the keys that resolve this screen (settle, re-verify, grant) stay.
    static func footerBindings(_ bindings: [KeyBinding], cols: Int) -> [KeyBinding] {
        func fits(_ keys: [KeyBinding]) -> Bool { keys.reduce(0) { $0 + footerWidth($1) } < cols }
        guard !fits(bindings) else { return bindings }
        let everywhere: Set<Key> = [.escape, .up, .down, .character("?"), .character("q")]
        return bindings.filter { $0.keys.allSatisfy { !everywhere.contains($0) } }
    }

    /// "worker 2 · due 12 (oldest 3m) · dead 1"; nothing for a store no worker serves and
    /// nothing is owed in (a demo, a copy).
    static func workerText(_ status: WorkerStatus, now: Millis) -> String? {
        let queue = status.queue
        guard status.live > 0 || queue.due > 0 || queue.dead > 0 else { return nil }
        var parts = [status.live == 0 ? "NO WORKER" : "worker\(status.live == 1 ? "" : "s") \(status.live)"]
        parts.append("due \(queue.due)" + (queue.oldestDueAt.map { " (oldest \(age(max(0, now - $0))))" } ?? ""))
        if queue.dead > 0 { parts.append("dead \(queue.dead)") }
        return parts.joined(separator: " · ")
    }

    /// State names short enough for all eight counts to fit 80 columns.
    static func shortName(_ state: OrderState) -> String {
        switch state {
        case .pendingPayment: "pending"
        case .receiptReceived: "received"
        case .verifyRetry: "retry"
        default: state.rawValue
        }
    }

    /// 1234567 → 1.2M, for counts that must fit the header.
    static func compact(_ n: Int64) -> String {
        switch n {
        case ..<10_000: "\(n)"
        case ..<1_000_000: "\(n / 1000)k"
        default: String(format: "%.1fM", Double(n) / 1_000_000)
        }
    }

    static func age(_ millis: Millis) -> String { millis.ageText }
}
