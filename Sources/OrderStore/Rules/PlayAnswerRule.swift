/// R3 for Google Play: what Google's answer about a purchase token means and what happens
/// next. As for Apple, only an answer that proves the purchase false for this order rejects
/// it: a token Google does not know for the app and product, or a purchase Google cancelled.
/// A pending payment waits; Google's faults retry; our own setup waits for an operator.
public enum PlayAnswerRule {
    public static func classify(_ report: VerificationReport) -> VerificationClass {
        if let error = report.transportError { return .retryable(reason: "no answer from Google: \(error)") }
        let reason = report.playError.map { " \($0)" } ?? ""
        switch report.httpStatus ?? 0 {
        case 429: return .retryable(reason: "Google's rate limit (HTTP 429\(reason))")
        case 500...599: return .retryable(reason: "Google HTTP \(report.httpStatus ?? 0)\(reason)")
        case 401, 403:
            return .configuration(
                reason: "Google refused iapdesk's service account (HTTP \(report.httpStatus ?? 0)\(reason)): "
                    + "check the key file and that Play Console grants it access to this app")
        case 400, 404, 410:
            return .final(reason: "Google knows no such purchase for this app and product (HTTP \(report.httpStatus ?? 0)\(reason))")
        case 200...299: break
        default: return .retryable(reason: "unexpected answer from Google (HTTP \(report.httpStatus.map(String.init) ?? "?")\(reason))")
        }
        guard let play = report.play else { return .retryable(reason: "unreadable answer from Google") }
        switch (play.state, play.subscriptionState) {
        case (_, "SUBSCRIPTION_STATE_PENDING"?), (.pending, _):
            return .retryable(reason: "pending at Google: the player has not paid yet; Google tells when they do")
        case (_, "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"?), (.cancelled, _):
            return .final(reason: "Google says the purchase was cancelled before it was paid: never granted")
        default:
            return .valid
        }
    }
}
