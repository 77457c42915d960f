import OrderDomain

/// One re-verification as people read it: `iapdesk order reverify` prints every line, the
/// console's message bar the one-line form. Both come from here.
public enum VerificationPresentation {
    /// How Apple was asked and what it said: "o-1: App Store Server API, production, 41 ms: status 0 (valid)".
    public static func headline(_ outcome: VerificationOutcome) -> String {
        let report = outcome.report
        let via = report.method == .serverAPI ? "App Store Server API" : "verifyReceipt"
        return "\(outcome.order.orderId): \(via), \(report.environment?.rawValue ?? "no environment"), \(report.latencyMs) ms: \(report.answerSummary)"
    }

    /// What the answer means and where the order is now, a line each, below the headline.
    public static func lines(_ outcome: VerificationOutcome) -> [DetailLine] {
        var lines: [DetailLine] = []
        switch outcome.classification {
        case .valid, .validExpired: break
        case .retryable(let why): lines.append(DetailLine("retryable: \(ReasonWords.sentence(why))", tone: .state(.verifyRetry)))
        case .configuration(let why): lines.append(DetailLine("our configuration, needs an operator: \(ReasonWords.sentence(why))", tone: .alert))
        case .final(let why): lines.append(DetailLine("final: \(ReasonWords.sentence(why))", tone: .failed))
        }
        lines += outcome.checks.map { $0.line() }
        if outcome.flaggedSandbox { lines.append(DetailLine("flagged: a sandbox purchase in a production store (R2)", tone: .alert)) }
        if let ownership = outcome.ownership { lines.append(DetailLine("ownership (R8): \(OwnershipWords.explanation(ownership))", tone: .state(.disputed))) }
        let order = outcome.order
        var state = "now \(order.state.rawValue)"
        if let next = order.nextRetryAt { state += ", next try \(TimeText.full(next))" }
        if order.needsOperator { state += ", needs operator" }
        if let error = ReasonWords.lastError(order), order.state != .delivered { state += ": \(error)" }
        lines.append(DetailLine(state, tone: .state(order.state)))
        return lines
    }

    /// The message bar's form: the headline, where the order went, the first failed check
    /// and the next try.
    public static func oneLine(_ outcome: VerificationOutcome) -> String {
        var text = headline(outcome) + " → \(outcome.order.state.rawValue)"
        if let failed = outcome.checks.first(where: { !$0.passed }) { text += " (\(failed.name.rawValue): \(CheckWords.saw(failed)))" }
        if outcome.order.state == .verifyRetry, let next = outcome.order.nextRetryAt { text += ", next try \(TimeText.full(next))" }
        return text
    }
}

extension VerificationReport {
    /// What Apple said, in a few words: `status 0 (valid)`, `no answer (timed out after 30 s)`,
    /// `HTTP 503 without a readable body`.
    public var answerSummary: String {
        if let transportError { return "no answer (\(transportError))" }
        if let appleStatus { return "status \(appleStatus) (\(StatusCodeRule.meaning(of: appleStatus)))" }
        return "HTTP \(httpStatus.map(String.init) ?? "?") without a readable body"
    }
}

extension BulkProgress {
    /// One line for the console's message and the CLI: what a bulk re-verification came to.
    public var summary: String {
        var text = "re-verified \(done): \(delivered) delivered, \(retrying) still waiting on Apple"
        if elsewhere > 0 { text += ", \(elsewhere) being verified by another process" }
        if !failed.isEmpty { text += ", \(failed.count) failed" }
        return text
    }
}

extension ReceiptCheck {
    /// One R5 check as every page prints it: "✓ bundle id: com.studio.game".
    func line(depth: Int = 0) -> DetailLine {
        DetailLine("\(passed ? "✓" : "✗") \(name.rawValue): \(CheckWords.saw(self))", tone: passed ? .passed : .failed, depth: depth)
    }
}

extension OrderDetail {
    /// The store's decision on the latest answer it decided from; nil before Apple answered
    /// (or for attempts from before verdicts were kept).
    public var latestVerdict: StoredVerdict? { attempts.last(where: { $0.verdict != nil })?.verdict }
}
