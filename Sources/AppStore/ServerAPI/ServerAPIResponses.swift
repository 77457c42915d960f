import Receipts

/// The Server API's answers, as Apple documents them; the `signed…` strings are JWS that
/// `ServerAPIClient` verifies before anything reads them.
struct TransactionInfoResponse: Codable {
    var signedTransactionInfo: String
}

/// Get Transaction History v2 and Get Refund History: pages of signed transactions.
public struct TransactionPage: Decodable, Sendable {
    public var revision: String?
    public var hasMore: Bool?
    public var environment: String?
    public var signedTransactions: [String]
}

struct StatusResponse: Codable {
    var environment: String?
    var data: [Group]

    struct Group: Codable {
        var subscriptionGroupIdentifier: String?
        var lastTransactions: [LastTransaction]
    }

    struct LastTransaction: Codable {
        /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
        var status: Int?
        var originalTransactionId: String?
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
    }
}

struct OrderLookupResponse: Decodable {
    /// 0 valid, 1 invalid.
    var status: Int
    var signedTransactions: [String]
}

struct ErrorPayload: Decodable {
    var errorCode: Int?
    var errorMessage: String?
}

struct NotificationHistoryResponse: Decodable {
    var paginationToken: String?
    var hasMore: Bool?
    var notificationHistory: [Item]

    struct Item: Decodable {
        var signedPayload: String
        var sendAttempts: [Attempt]?
    }

    struct Attempt: Decodable {
        var attemptDate: AppleDate?
        var sendAttemptResult: String?
    }
}
