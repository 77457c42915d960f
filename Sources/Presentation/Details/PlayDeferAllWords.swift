import OrderDomain

/// What deferring every subscriber of a product at Google came to, said once for the CLI's
/// lines and the console's message.
public enum PlayDeferAllWords {
    /// "2 of 3 vip_monthly subscriptions deferred by 7 days at Google", with " (stopped at 2 of 3)" when stopped.
    public static func headline(_ summary: PlayDeferAllSummary, productId: String, days: Int) -> String {
        let stopped = summary.done < summary.total ? " (stopped at \(summary.done) of \(summary.total))" : ""
        return "\(summary.deferred) of \(summary.total) \(productId) subscriptions deferred by \(days) days at Google" + stopped
    }

    /// Each subscription not deferred, and why: Google's words, or the store's.
    public static func refusals(_ summary: PlayDeferAllSummary) -> [String] {
        summary.refused.map { otid, refusal in
            switch refusal {
            case .google(let words): "\(otid): Google refused: \(words)"
            case .failed(let error): "\(otid): \(ErrorWords.what(error))"
            }
        }
    }
}
