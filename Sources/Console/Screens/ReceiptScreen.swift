import AppStore
import Foundation
import OrderStore
import Presentation
import Receipts
import Terminal

/// `v`: what Apple said about an order, decoded: the stored answer of the latest call (or,
/// before any call, the submitted receipt decoded locally), its signature verdicts, every R5
/// check as the rules see that answer, the merged transactions newest first with the order's
/// own marked, pending renewal info, and every decoded field. `t` shows the raw text.
public final class ReceiptScreen: ConsoleScreen {
    let orderId: String
    private var lines: [(String, ThemeRole)] = []
    private var raw = ""
    private var showRaw = false
    private var text = ScrollingText()
    /// What the lines were decoded from: the refresh every 2 s reads the order again, but
    /// decodes and verifies signatures again only when Apple's answer or the verdict changed.
    private var decodedFrom: String?

    public init(orderId: String) { self.orderId = orderId }

    public var title: String { "Receipt · \(orderId)" + (showRaw ? " · raw" : "") }

    public func commands(_ session: ConsoleSession) -> [KeyCommand] {
        [
            KeyCommand(KeyBinding(.escape, action: "back")),
            KeyCommand(KeyBinding(.character("t"), action: showRaw ? "decoded" : "raw")) {
                self.showRaw.toggle()
                self.text.reset()
                self.text.changed()
                return .none
            },
            KeyCommand(KeyBinding(.up, .down, action: "scroll")), KeyCommand(KeyBinding(.character("?"), action: "help")),
        ]
    }

    public func load(_ session: ConsoleSession) async throws {
        let detail = try await session.store.orderDetail(orderId)
        var lines: [(String, ThemeRole)] = []
        let source: String
        let input: String
        if let attempt = detail.attempts.last(where: { !($0.body ?? "").isEmpty }), let body = attempt.body {
            source =
                "Apple's answer to the latest call: \(attempt.method.rawValue) \(attempt.environment?.rawValue ?? "-") at \(TimeText.full(attempt.at)), "
                + (attempt.appleStatus.map { "status \($0) \(StatusCodeRule.meaning(of: $0))" } ?? "no status")
            input = body
        } else if let submission = detail.submissions.last {
            source = "the receipt submitted at \(TimeText.full(submission.receivedAt)), decoded here (Apple not asked yet)"
            input = submission.receiptData
        } else {
            self.lines = [("No receipt was submitted for this order.", .muted)]
            (decodedFrom, raw) = (nil, "")
            text.changed()
            return
        }
        let verdict = detail.attempts.last(where: { $0.verdict != nil })?.verdict
        let key = [source, input, verdict.map { "\($0)" } ?? "", detail.order.transactionId ?? ""].joined(separator: "\u{0}")
        guard key != decodedFrom else { return }
        decodedFrom = key
        text.changed()
        raw = input
        lines.append(("Source  " + source, .row))

        let data = try? AppleDataDetector.detect(Array(input.utf8))
        var document: ReceiptDocument?
        if let data { document = await ReceiptDocumentBuilder.build(data, trust: session.trust) }
        if let document {
            lines.append(("", .row))
            lines.append(("Signatures", .tableHeader))
            if document.signatures.isEmpty { lines.append(("  none in this data (verifyReceipt answers are Apple's word over TLS)", .muted)) }
            for s in document.signatures {
                lines.append(("  \(s.verified ? "✓" : "✗") \(s.subject): \(s.summary)", s.verified ? .checkPassed : .checkFailed))
            }
        } else {
            lines.append(("Not Apple data iapdesk can decode.", .flashError))
        }

        let content = await StoredAnswer.content(input, trust: session.trust)
        lines += Self.verdictLines(verdict)
        if let content {
            let picked = verdict?.pickedTransactionId ?? detail.order.transactionId
            lines.append(("", .row))
            lines.append(("Transactions, in_app and latest_receipt_info merged, newest first (▶ this order's)", .tableHeader))
            for t in TransactionPicking.merged(content) {
                let mark = t.transactionId == picked ? "▶" : " "
                var line = "\(mark) \(t.transactionId)  \(t.productId)  \(TimeText.full(t.purchaseDate))  original \(t.originalTransactionId)"
                if let expires = t.expiresDate { line += "  expires \(TimeText.full(expires))" }
                if let cancelled = t.cancellationDate { line += "  CANCELLED \(TimeText.full(cancelled))" }
                lines.append((line, t.cancellationDate == nil ? (mark == "▶" ? .flashInfo : .row) : .checkFailed))
            }
            if !content.pendingRenewals.isEmpty {
                lines.append(("", .row))
                lines.append(("Pending renewal", .tableHeader))
                for r in content.pendingRenewals {
                    lines.append(("  \(r.originalTransactionId)  \(r.productId)  auto-renew \(r.autoRenewEnabled ? "on" : "off")", .row))
                }
            }
        }
        for section in document?.sections ?? [] {
            lines.append(("", .row))
            lines.append((section.title, .tableHeader))
            for field in section.fields { lines.append(("  " + field.name.padding(toLength: 26, withPad: " ", startingAt: 0) + field.value, .row)) }
            if let table = section.table {
                lines.append(("  " + table.columns.joined(separator: " | "), .muted))
                for row in table.rows { lines.append(("  " + row.joined(separator: " | "), .row)) }
            }
        }
        self.lines = lines
    }

    /// The store's own verdict on the latest answer it decided from: what it picked, every
    /// R5 check as it ran, the R8 decision. Nothing is recomputed here.
    static func verdictLines(_ verdict: StoredVerdict?) -> [(String, ThemeRole)] {
        guard let verdict else { return [("", .row), ("No verdict stored: Apple has not been asked since verdicts are kept.", .muted)] }
        var lines: [(String, ThemeRole)] = [("", .row), ("The store's verdict: \(verdict.outcome.rawValue) → \(verdict.orderState.rawValue)", .tableHeader)]
        if let reason = verdict.reason { lines.append(("  \(reason)", verdict.outcome == .valid ? .row : .flashError)) }
        if verdict.sandboxInProduction { lines.append(("  " + EnvironmentRule.flaggedSandboxText, .flashError)) }
        for check in verdict.checks {
            lines.append(("  \(check.passed ? "✓" : "✗") \(check.name.rawValue): \(check.detail)", check.passed ? .checkPassed : .checkFailed))
        }
        if let ownership = verdict.ownershipReason { lines.append(("  R8: \(ownership)", .row)) }
        return lines
    }

    /// What the screen shows: the decoded receipt, or its raw text after `t`.
    func shown(theme: Theme) -> [(String, Style)] {
        showRaw ? [(raw, theme[.row])] : lines.map { ($0.0, theme[$0.1]) }
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.render(into: &screen, area: area, theme: theme) { shown(theme: theme) }
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        _ = text.handle(key, area: area, theme: session.theme) { shown(theme: session.theme) }
        return .none
    }
}
