import OrderDomain
import Receipts

/// What Apple said about an order, decoded: the console's receipt screen (`v`) and
/// `iapdesk order receipt` show these sections. The source is Apple's stored answer to the
/// latest call (or, before any call, the submitted receipt decoded here); then its signature
/// verdicts, the store's own verdict with every R5 check as it ran, the transactions the
/// rules merged newest first with the order's own marked, pending renewals, and every
/// decoded field.
public enum ReceiptPresentation {
    /// The text a page is decoded from, and where it came from in words.
    public struct Input: Sendable, Equatable {
        public var source: String
        public var text: String
        /// Apple's answer (read back through a ``StoredAnswerReader``), not a submitted receipt.
        public var isAnswer: Bool
    }

    /// A decoded page: its sections, and the text they were decoded from (`t`, `--raw`).
    public struct Page: Sendable, Equatable {
        public var raw: String
        public var sections: [DetailSection]

        public init(raw: String, sections: [DetailSection]) {
            self.raw = raw
            self.sections = sections
        }
    }

    /// Apple's answer to the latest call that kept one; before any, the latest receipt
    /// submitted; nil when the order has neither.
    public static func input(of detail: OrderDetail) -> Input? {
        if let attempt = detail.attempts.last(where: { !($0.body ?? "").isEmpty }), let body = attempt.body {
            let answer = attempt.appleStatus.map { "status \($0) \(StatusCodeRule.meaning(of: $0))" } ?? "no status"
            return Input(
                source:
                    "Apple's answer to the latest call: \(attempt.method.rawValue) \(attempt.environment?.rawValue ?? "-") at \(TimeText.full(attempt.at)), \(answer)",
                text: body, isAnswer: true)
        }
        guard let submission = detail.submissions.last else { return nil }
        return Input(
            source: "the receipt submitted at \(TimeText.full(submission.receivedAt)), decoded here (Apple not asked yet)", text: submission.receiptData,
            isAnswer: false)
    }

    /// Decodes the page: the input's signatures checked against `trust`, a stored answer read
    /// back through `answers` as the rules saw it (every JWS verified again). Without a reader
    /// the page says Apple's answer was not read back, rather than showing less in silence.
    public static func read(_ detail: OrderDetail, trust: TrustRoots, answers: (any StoredAnswerReader)?) async -> Page {
        guard let input = input(of: detail) else { return Page(raw: "", sections: [DetailSection(nil, [DetailLine(noReceipt, tone: .muted)])]) }
        var document: ReceiptDocument?
        if let data = try? AppleDataDetector.detect(Array(input.text.utf8)) { document = await ReceiptDocumentBuilder.build(data, trust: trust) }
        let content = input.isAnswer ? await answers?.content(ofStoredAnswer: input.text) : nil
        let verdict = detail.latestVerdict
        var sections = sections(
            source: input.source, document: document, verdict: verdict, content: content,
            picked: verdict?.pickedTransactionId ?? detail.order.transactionId)
        if input.isAnswer, answers == nil { sections[0].lines.append(DetailLine(notReadBack, tone: .muted)) }
        return Page(raw: input.text, sections: sections)
    }

    public static let noReceipt = "No receipt was submitted for this order."
    public static let notReadBack = "Apple's answer is not read back into transactions here: this session has no reader for stored answers."

    /// The page from what was decoded; `picked` is the order's own transaction, marked ▶.
    public static func sections(
        source: String, document: ReceiptDocument?, verdict: StoredVerdict?, content: AppleReceiptContent?, picked: String?
    ) -> [DetailSection] {
        var sections = [DetailSection(nil, [DetailLine(label: "Source", source)] + (document == nil ? [DetailLine(notApple, tone: .alert)] : []))]
        if let document {
            sections.append(
                DetailSection(
                    "Signatures",
                    document.signatures.map {
                        DetailLine("\($0.verified ? "✓" : "✗") \($0.subject): \($0.summary)", tone: $0.verified ? .passed : .failed, depth: 1)
                    },
                    empty: "none in this data (verifyReceipt answers are Apple's word over TLS)"))
        }
        sections.append(verdictSection(verdict))
        if let content {
            sections.append(
                DetailSection(
                    "Transactions, in_app and latest_receipt_info merged, newest first (▶ this order's)",
                    TransactionPicking.merged(content).map { transactionLine($0, picked: $0.transactionId == picked) }))
            if !content.pendingRenewals.isEmpty {
                sections.append(
                    DetailSection(
                        "Pending renewal",
                        content.pendingRenewals.map {
                            DetailLine("\($0.originalTransactionId)  \($0.productId)  auto-renew \($0.autoRenewEnabled ? "on" : "off")", depth: 1)
                        }))
            }
        }
        for section in document?.sections ?? [] {
            var lines = section.fields.map { DetailLine($0.name.padding(toLength: 26, withPad: " ", startingAt: 0) + $0.value, depth: 1) }
            if let table = section.table {
                lines.append(DetailLine(table.columns.joined(separator: " | "), tone: .muted, depth: 1))
                lines += table.rows.map { DetailLine($0.joined(separator: " | "), depth: 1) }
            }
            sections.append(DetailSection(section.title, lines))
        }
        return sections
    }

    public static let notApple = "Not Apple data iapdesk can decode."

    /// The store's own verdict on the latest answer it decided from: what it picked, every R5
    /// check as it ran, the R8 decision. Nothing is recomputed here.
    static func verdictSection(_ verdict: StoredVerdict?) -> DetailSection {
        guard let verdict else {
            return DetailSection("The store's verdict", [], empty: "none stored: Apple has not been asked since verdicts are kept")
        }
        var lines: [DetailLine] = []
        if let reason = verdict.why.map(ReasonWords.sentence) { lines.append(DetailLine(reason, tone: verdict.outcome == .valid ? .plain : .alert, depth: 1)) }
        if verdict.sandboxInProduction { lines.append(DetailLine(EnvironmentRule.flaggedSandboxText, tone: .alert, depth: 1)) }
        lines += verdict.checks.map { $0.line(depth: 1) }
        if let ownership = ReasonWords.ownership(verdict) { lines.append(DetailLine("R8: \(ownership)", depth: 1)) }
        return DetailSection("The store's verdict: \(verdict.outcome.rawValue) → \(verdict.orderState.rawValue)", lines)
    }

    static func transactionLine(_ t: AppleTransaction, picked: Bool) -> DetailLine {
        var text = "\(picked ? "▶" : " ") \(t.transactionId)  \(t.productId)  \(TimeText.full(t.purchaseDate))  original \(t.originalTransactionId)"
        if let expires = t.expiresDate { text += "  expires \(TimeText.full(expires))" }
        if let cancelled = t.cancellationDate { text += "  CANCELLED \(TimeText.full(cancelled))" }
        return DetailLine(text, tone: t.cancellationDate != nil ? .failed : picked ? .marked : .plain)
    }
}
