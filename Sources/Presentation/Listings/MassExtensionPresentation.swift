import OrderDomain

/// Extensions for all subscribers of a product, as `iapdesk subscription extensions` lists
/// them: what was asked, by whom, and how far Apple got.
public enum MassExtensionPresentation {
    public static func status(_ e: MassExtension) -> Cell {
        switch e.outcome {
        case .failed: return Cell("Apple refused: \(e.appleError ?? "?")", .alert)
        case .sending, .abandoned: return Cell(e.outcome == .sending ? "being asked" : "abandoned (its sender stopped)", .muted)
        case .sent:
            let counts = "\(e.succeeded.map(String.init) ?? "?") extended, \(e.failed.map(String.init) ?? "?") failed"
            return e.completeAt.map { Cell("done \(TimeText.full($0)): \(counts)", .passed) } ?? Cell("in progress at Apple", .alert)
        }
    }

    public static func listing() -> Listing<MassExtension> {
        Listing(
            title: "Extensions for all subscribers", empty: "No extension for all subscribers was asked.",
            columns: [
                ListColumn("ASKED", width: 16) { .time($0.claimedAt) },
                ListColumn("PRODUCT", width: 12) { Cell($0.productId) },
                ListColumn("DAYS", width: 4) { .count(Int64($0.days)) },
                ListColumn("ENV", width: 10) { Cell($0.environment.rawValue, .muted) },
                ListColumn("BY", width: 8) { Cell($0.operatorName) },
                ListColumn("REQUEST", width: 36) { Cell($0.requestId, .muted) },
                ListColumn("STATUS", width: 20, flexible: true) { status($0) },
            ])
    }
}
