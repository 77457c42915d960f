/// R3 for Google Play: what Google's answer about a purchase token means and what happens
/// next. As for Apple, only an answer that proves the purchase false for this order rejects
/// it: a token Google does not know for the app and product, or a purchase Google cancelled.
/// A pending payment waits; Google's faults retry; our own setup waits for an operator.
public enum PlayAnswerRule {
    public static func classify(_ report: VerificationReport) -> VerificationClass {
        if let error = report.transportError { return .retryable(Why(.storeUnreachable(.googlePlay), "no answer from Google: \(error)")) }
        let reason = report.playError.map { " \($0)" } ?? ""
        let http = report.httpStatus ?? 0
        switch http {
        case 429: return .retryable(Why(.storeRateLimited(.googlePlay), "Google's rate limit (HTTP 429\(reason))"))
        case 500...599: return .retryable(Why(.storeServerError(.googlePlay, http: http), "Google HTTP \(http)\(reason)"))
        case 401, 403:
            return .configuration(Why(.credentialsRefused(.googlePlay), "Google refused iapdesk's service account (HTTP \(http)\(reason))"))
        case 400, 404, 410:
            return .final(Why(.googleUnknownPurchase(http: http), "Google knows no such purchase for this app and product (HTTP \(http)\(reason))"))
        case 200...299: break
        default: return .retryable(Why(.storeAnswerUnexpected(.googlePlay, http: http), "unexpected answer from Google (HTTP \(http)\(reason))"))
        }
        guard let play = report.play else { return .retryable(Why(.storeAnswerUnreadable(.googlePlay), "unreadable answer from Google")) }
        switch (play.state, play.subscriptionState) {
        case (_, "SUBSCRIPTION_STATE_PENDING"?), (.pending, _):
            return .retryable(Why(.googlePending, "pending at Google: the player has not paid yet; Google tells when they do"))
        case (_, "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"?), (.cancelled, _):
            return .final(Why(.googleCancelledBeforePayment, "Google says the purchase was cancelled before it was paid: never granted"))
        default:
            return .valid
        }
    }
}
