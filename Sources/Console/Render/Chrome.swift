import Foundation
import OrderStore
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
        let badge = session.readOnly ? " READ-ONLY " : ""
        let right = min(screen.cols, TextWidth.of(Sanitizer.sanitize(who)) + TextWidth.of(badge))
        let storeWidth = screen.write(" iapdesk  \(session.storeLabel)", row: 0, col: 0, maxWidth: max(0, screen.cols - right - 1), style: theme[.header])
        if let workers, let text = workerText(workers) {
            screen.write("  " + text, row: 0, col: storeWidth, maxWidth: max(0, screen.cols - right - 1 - storeWidth),
                         style: workers.live == 0 || workers.queue.dead > 0 ? theme[.headerBadge] : theme[.header])
        }
        let col = screen.cols - right
        let used = screen.write(badge, row: 0, col: col, style: theme[.headerBadge])
        screen.write(who, row: 0, col: col + used, style: theme[.header])
        if let counts {
            // Stuck first: it is what support opens the console for.
            let stuck = "stuck \(StoreCounts.text(counts.stuck))" + (counts.oldestStuckAge.map { " (oldest \(age($0)))" } ?? "")
            var col = 1 + screen.write(stuck, row: 1, col: 1, style: counts.stuck > 0 ? theme[.flashError] : theme[.muted]) + 2
            // Beside stuck: granted, but the game has not confirmed it knows.
            if counts.gameNotTold > 0 {
                col += screen.write("not told \(StoreCounts.text(counts.gameNotTold))", row: 1, col: col, style: theme[.flashError]) + 2
            }
            for state in OrderState.allCases {
                let n = counts.byState[state, default: 0]
                guard n > 0 else { continue }
                col += screen.write("\(shortName(state)) \(compact(n))", row: 1, col: col, style: theme[.state(state)]) + 2
            }
            if counts.sandboxInProduction > 0 {
                screen.write("sandbox \(StoreCounts.text(counts.sandboxInProduction))", row: 1, col: col, style: theme[.muted])
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
        for binding in bindings {
            let key = " \(binding.label) "
            guard col + TextWidth.of(key) + TextWidth.of(binding.action) + 1 < screen.cols else { break }
            col += screen.write(key, row: footerRow, col: col, style: theme[.footerKey])
            col += screen.write(" \(binding.action) ", row: footerRow, col: col, style: theme[.footerText])
        }
    }

    /// "worker 2 · due 12 (oldest 3m) · dead 1"; nothing for a store no worker serves and
    /// nothing is owed in (a demo, a copy).
    static func workerText(_ status: WorkerStatus, now: Millis = .now()) -> String? {
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
