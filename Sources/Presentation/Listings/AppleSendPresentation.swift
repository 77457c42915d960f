import OrderDomain

/// Apple's record beside serve's, so "Apple never told us" (no SUCCESS, nothing received)
/// and "we lost it" (Apple's SUCCESS, nothing kept) read apart.
public enum AppleSendPresentation {
    /// What the two records together say.
    public static func verdict(_ r: AppleSendRecord) -> Cell {
        let delivered = r.attempts.contains { $0.result == "SUCCESS" }
        switch (r.received, delivered) {
        case (let kept?, _): return Cell("kept #\(kept.id) (\(kept.via.rawValue)), \(kept.outcome.rawValue)", .passed)
        case (nil, true): return Cell("LOST: Apple delivered it, serve kept nothing", .alert)
        case (nil, false): return Cell("never delivered by Apple (the history sweep recovers it)", .alert)
        }
    }

    public static func attempts(_ r: AppleSendRecord) -> String {
        guard let last = r.attempts.last else { return "not tried yet" }
        return "\(r.attempts.count) tr\(r.attempts.count == 1 ? "y" : "ies"), last \(last.result)"
    }

    public static func listing() -> Listing<AppleSendRecord> {
        Listing(
            title: "Apple's notification history beside serve's", empty: "Apple sent nothing in the span.",
            columns: [
                ListColumn("SIGNED", width: 16) { .time($0.facts.signedDate) },
                ListColumn("TYPE", width: 22) { Cell($0.facts.kind, $0.rejection == nil ? .plain : .alert) },
                ListColumn("TRANSACTION", width: 17) { Cell($0.facts.transaction?.transactionId, .muted) },
                ListColumn("APPLE TRIED", width: 20) { Cell(attempts($0)) },
                ListColumn("SERVE", width: 20, flexible: true) { verdict($0) },
            ])
    }
}
