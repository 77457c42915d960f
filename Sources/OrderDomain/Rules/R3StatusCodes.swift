/// R3: what an Apple answer means and what happens next [S0 table, S2, S4].
public enum VerificationClass: Sendable, Equatable {
    /// Status 0: the receipt is genuine; the R5 checks decide whether it pays for the order.
    case valid
    /// 21006: valid, but the (iOS 6 style) subscription has expired. Receipt data is present.
    case validExpired
    /// Try again later: the order goes to `verify_retry` on the R4 schedule.
    case retryable(Why)
    /// Our own setup is wrong (shared secret, key, bundle): not the player's fault. The
    /// order waits in `verify_retry`, flagged "needs operator", and the consoles show a
    /// banner until the configuration is fixed and the retries go through.
    case configuration(Why)
    /// The answer proves the receipt invalid for this order: rejected with the reason.
    case final(Why)

    /// Outcome as stored with the verification attempt.
    public var outcome: AttemptOutcome {
        switch self {
        case .valid: .valid
        case .validExpired: .validExpired
        case .retryable: .retryable
        case .configuration: .configuration
        case .final: .final
        }
    }

    /// Apple vouched for the receipt (its content is there to check).
    public var isValid: Bool { self == .valid || self == .validExpired }

    /// Why the order does not go on, for an answer that stops it.
    public var why: Why? {
        switch self {
        case .valid, .validExpired: nil
        case .retryable(let why), .configuration(let why), .final(let why): why
        }
    }
}

/// How one verification attempt ended, as the store records it.
public enum AttemptOutcome: String, Sendable, Codable, CaseIterable {
    case valid
    case validExpired = "valid_expired"
    case retryable
    case configuration
    case final
    /// Apple's answer was valid, but the R5 checks or R7 turned the order down.
    case checkFailed = "check_failed"
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
        if report.storeNotConfigured { return .configuration(Why(.storeNotConfigured(report.method == .googlePlay ? .googlePlay : .appStore))) }
        if report.method == .googlePlay { return PlayAnswerRule.classify(report) }
        if let error = report.transportError {
            return .retryable(Why(.storeUnreachable(.appStore), ReasonParticulars(message: error)))
        }
        if let code = report.appleStatus, code >= 4_000_000 {
            return serverAPI(code)
        }
        if let http = report.httpStatus, http >= 500 {
            return .retryable(Why(.storeServerError(.appStore, http: http)))
        }
        if let http = report.httpStatus, http == 429 {
            return .retryable(Why(.storeRateLimited(.appStore)))
        }
        if let http = report.httpStatus, http == 401 || http == 403 {
            // Our key or secret is wrong: an operator fixes the configuration, the player keeps the order.
            return .configuration(Why(.credentialsRefused(.appStore), ReasonParticulars(http: http)))
        }
        guard let status = report.appleStatus else {
            // An HTTP answer we could not read is Apple's fault, not the player's: retry.
            return .retryable(Why(.storeAnswerUnreadable(.appStore), ReasonParticulars(http: report.httpStatus)))
        }
        switch status {
        case 0: return .valid
        case 21006: return .validExpired
        case 21002, 21005, 21009: return .retryable(Why(.appleStatus(status)))
        case 21100...21199:
            // Apple's own internal errors: `is_retryable` false says this very request will
            // fail again, not that the receipt is bad; the order waits for an operator.
            return report.isRetryable == false
                ? .configuration(Why(.appleNotRetryable(status)))
                : .retryable(Why(.appleStatus(status)))
        case 21007, 21008:
            // R2 resends these; if one is still the final answer the resend itself failed.
            return .retryable(Why(.environmentUnsettled(status)))
        case 21004:
            return .configuration(Why(.sharedSecretRejected))
        case 21000:
            return .configuration(Why(.requestUnreadable))
        case 21003 where report.sharedSecretSent != true:
            // Without a secret Apple can't authenticate subscription receipts: our setup, not a forgery.
            return .configuration(Why(.sharedSecretMissing))
        case 21003, 21010:
            return .final(Why(.appleStatus(status)))
        default:
            // A code Apple never documented proves nothing about the receipt.
            return .configuration(Why(.undocumentedStatus(status)))
        }
    }

    /// Server API codes: Apple's `…Retryable` variants, rate limits and Apple's own errors
    /// come back later. The rest say our request or setup is wrong (a bad id we sent, an app
    /// or account Apple does not know under our key); a transaction unknown to both
    /// environments reaches here only when no stored receipt could be asked instead. None
    /// proves the player's purchase false, so the order waits for an operator.
    private static func serverAPI(_ code: Int) -> VerificationClass {
        switch code {
        case 4_040_002, 4_040_004, 4_040_006, 4_290_000, 5_000_000...5_999_999: return .retryable(Why(.appleStatus(code)))
        default: return .configuration(Why(.serverAPIRefused(code)))
        }
    }
}
