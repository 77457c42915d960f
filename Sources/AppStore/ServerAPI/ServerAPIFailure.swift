import OrderDomain

/// Why a Server API call gave no usable answer. The store's R3 rule decides what happens
/// next from the same fields a `VerificationReport` carries.
public struct ServerAPIFailure: Error, Sendable, CustomStringConvertible {
    public var httpStatus: Int?
    /// Apple's `errorCode` (4040010, 4290000…), when the body had one.
    public var errorCode: Int?
    public var message: String?
    /// No HTTP answer, an unreadable body, or a JWS that failed its checks.
    public var transportError: String?
    public var latencyMs: Int
    public var body: String
    /// A 429's `Retry-After`: the Server API sends a UNIX time in milliseconds.
    public var retryAfter: Int?

    /// When Apple allows the next call after a 429: its `Retry-After` read as a UNIX time
    /// in milliseconds, or as seconds from `now` when it is small enough to be that.
    public func retryAt(now: Millis = .now()) -> Millis? {
        guard let retryAfter else { return nil }
        return retryAfter > 100_000_000_000 ? Int64(retryAfter) : now + .seconds(Int64(retryAfter))
    }

    public var description: String {
        if let transportError { return transportError }
        if let errorCode { return "\(errorCode) \(StatusCodeRule.meaning(of: errorCode))" + (message.map { " (\($0))" } ?? "") }
        return "HTTP \(httpStatus.map(String.init) ?? "?")"
    }

    /// Get Transaction Info's "transaction id not found".
    static let transactionNotFound = 4_040_010

    /// Apple's "not found in this environment": the cue to ask the other one (R2).
    var isNotFound: Bool { errorCode == 4_040_010 || errorCode == 4_040_005 }
}
