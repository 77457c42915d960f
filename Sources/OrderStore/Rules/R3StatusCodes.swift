/// R3: what an Apple answer means and what happens next [S0 table, S2, S4].
public enum VerificationClass: Sendable, Equatable {
    /// Status 0: the receipt is genuine; the R5 checks decide whether it pays for the order.
    case valid
    /// 21006: valid, but the (iOS 6 style) subscription has expired. Receipt data is present.
    case validExpired
    /// Try again later: the order goes to `verify_retry` on the R4 schedule.
    case retryable(reason: String)
    /// Never retry: the order is rejected with the reason.
    case final(reason: String)
}

public enum StatusCodeRule {
    /// Apple's meaning of a verifyReceipt status, shown next to every code in the console.
    public static func meaning(of status: Int) -> String {
        switch status {
        case 0: "valid"
        case 21000: "request not a POST / JSON unreadable"
        case 21001: "no longer sent by Apple"
        case 21002: "receipt-data malformed or temporary issue"
        case 21003: "receipt could not be authenticated"
        case 21004: "shared secret does not match"
        case 21005: "receipt server temporarily unavailable"
        case 21006: "valid, but the subscription has expired"
        case 21007: "sandbox receipt sent to production"
        case 21008: "production receipt sent to sandbox"
        case 21009: "internal data access error"
        case 21010: "user account not found or deleted"
        case 21100...21199: "internal data access error (\(status))"
        // The App Store Server API's error codes (reference/apple-iap.md §3.5).
        case 4_000_006: "invalid transaction id"
        case 4_000_000...4_009_999: "bad request"
        case 4_040_001, 4_040_002: "account not found"
        case 4_040_003, 4_040_004: "app not found"
        case 4_040_005, 4_040_006: "original transaction id not found"
        case 4_040_010: "transaction id not found"
        case 4_290_000: "rate limit exceeded"
        case 5_000_000, 5_000_001: "Apple internal error"
        default: "unknown status \(status)"
        }
    }

    /// Classify one final answer (after any R2 resend).
    public static func classify(_ report: VerificationReport) -> VerificationClass {
        if let error = report.transportError {
            return .retryable(reason: "no answer from Apple: \(error)")
        }
        if let code = report.appleStatus, code >= 4_000_000 {
            return serverAPI(code)
        }
        if let http = report.httpStatus, http >= 500 {
            return .retryable(reason: "Apple HTTP \(http)")
        }
        if let http = report.httpStatus, http == 429 {
            return .retryable(reason: "Apple rate limit (HTTP 429)")
        }
        if let http = report.httpStatus, http == 401 || http == 403 {
            // Our key or secret is wrong: an operator fixes the configuration, the player keeps the order.
            return .retryable(reason: "Apple refused iapdesk's credentials (HTTP \(http)): check the configuration")
        }
        guard let status = report.appleStatus else {
            // An HTTP answer we could not read is Apple's fault, not the player's: retry.
            return .retryable(reason: "unreadable answer from Apple (HTTP \(report.httpStatus.map(String.init) ?? "?"))")
        }
        let described = "\(status) \(meaning(of: status))"
        switch status {
        case 0: return .valid
        case 21006: return .validExpired
        case 21002, 21005, 21009: return .retryable(reason: described)
        case 21100...21199:
            // Only a true `is_retryable` makes 211xx retryable; absent or false is final.
            return report.isRetryable == true ? .retryable(reason: described) : .final(reason: described)
        case 21007, 21008:
            // R2 resends these; if one is still the final answer the resend itself failed.
            return .retryable(reason: "\(described) (environment switch did not settle)")
        default:
            return .final(reason: described)
        }
    }

    /// Server API codes: Apple's `…Retryable` variants, rate limits and Apple's own errors
    /// come back later; a transaction Apple does not know (in either environment) is final.
    private static func serverAPI(_ code: Int) -> VerificationClass {
        let described = "\(code) \(meaning(of: code))"
        switch code {
        case 4_040_002, 4_040_004, 4_040_006, 4_290_000, 5_000_000...5_999_999: return .retryable(reason: described)
        default: return .final(reason: described)
        }
    }
}
