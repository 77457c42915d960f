/// R3 for Google Play: what Google's answer about a purchase token means and what happens
/// next. As for Apple, only an answer that proves the purchase false for this order rejects
/// it: a token Google does not know for the app and product, or a purchase Google cancelled.
/// A pending payment waits; Google's faults retry; our own setup waits for an operator.
public enum PlayAnswerRule {
    public static func classify(_ report: VerificationReport) -> VerificationClass {
        if let error = report.transportError { return .retryable(Why(.storeUnreachable(.googlePlay), ReasonParticulars(message: error))) }
        let said = ReasonParticulars(message: report.playError)
        let http = report.httpStatus ?? 0
        switch http {
        case 429: return .retryable(Why(.storeRateLimited(.googlePlay), said))
        case 500...599: return .retryable(Why(.storeServerError(.googlePlay, http: http), said))
        case 401, 403:
            return .configuration(Why(.credentialsRefused(.googlePlay), ReasonParticulars(message: report.playError, http: http)))
        case 400, 404, 410:
            return .final(Why(.googleUnknownPurchase(http: http), said))
        case 200...299: break
        default: return .retryable(Why(.storeAnswerUnexpected(.googlePlay, http: http), said))
        }
        guard let play = report.play else { return .retryable(Why(.storeAnswerUnreadable(.googlePlay))) }
        switch (play.state, play.subscriptionState) {
        case (_, "SUBSCRIPTION_STATE_PENDING"?), (.pending, _):
            return .retryable(Why(.googlePending))
        case (_, "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"?), (.cancelled, _):
            return .final(Why(.googleCancelledBeforePayment))
        default:
            return .valid
        }
    }
}
