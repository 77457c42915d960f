import Foundation
import OrderDomain
import Receipts

/// The Server API's actions a studio may take, and Get App Transaction Info. Like the
/// reads, each returns Apple's answer or a failure carrying Apple's error code and message
/// (an extension refused for an expired subscription is 4030004, said so).
extension ServerAPIClient: AppleActions {
    /// Send Consumption Information (v2): what the developer tells Apple about a purchase
    /// the customer asked to have refunded. Apple requires the customer's consent.
    public typealias ConsumptionInformation = ConsumptionAnswer

    /// `PUT /inApps/v2/transactions/consumption/{transactionId}` (Apple answers 202).
    public func sendConsumption(_ info: ConsumptionInformation, transactionId: String, in environment: AppleEnvironment) async -> Result<
        Answer<NoContent>, ServerAPIFailure
    > {
        await call(.PUT, "/inApps/v2/transactions/consumption/\(escaped(transactionId))", environment, json: info, as: NoContent.self) { $0 }
    }

    /// `sendConsumption` as the store's `refunds.answer` calls it: nil when Apple took
    /// the answer, else Apple's refusal in words (its error code and message).
    public func consumptionRefusal(transactionId: String, environment: AppleEnvironment, answer: ConsumptionAnswer) async -> String? {
        switch await sendConsumption(answer, transactionId: transactionId, in: environment) {
        case .success: nil
        case .failure(let failure): failure.description
        }
    }

    /// Apple's reasons for an extension (`extendReasonCode`).
    public enum ExtendReason: Int, Sendable, Encodable, CaseIterable {
        case undeclared = 0, customerSatisfaction = 1, other = 2, serviceIssueOrOutage = 3
    }

    /// Extend a Subscription Renewal Date's answer: the new expiry is `effectiveDate`.
    public struct Extension: Sendable, Decodable, Equatable {
        public var originalTransactionId: String?
        public var webOrderLineItemId: String?
        public var success: Bool?
        public var effectiveDate: AppleDate?
    }

    /// `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`: up to 90 days, at most
    /// twice a year, for an active subscription that is not family shared.
    public func extendRenewalDate(
        originalTransactionId: String, days: Int, reason: ExtendReason, requestIdentifier: String, in environment: AppleEnvironment
    ) async -> Result<Answer<Extension>, ServerAPIFailure> {
        let body = ExtendBody(extendByDays: days, extendReasonCode: reason, requestIdentifier: requestIdentifier)
        return await call(.PUT, "/inApps/v1/subscriptions/extend/\(escaped(originalTransactionId))", environment, json: body, as: Extension.self) { $0 }
    }

    /// `extendRenewalDate` as the store's `extensions.extend` calls it: Apple's new end of
    /// the subscription, or its refusal in words.
    public func extensionAnswer(originalTransactionId: String, days: Int, reasonCode: Int, requestId: String, environment: AppleEnvironment) async
        -> ExtensionAnswer
    {
        let reason = ExtendReason(rawValue: reasonCode) ?? .undeclared
        switch await extendRenewalDate(originalTransactionId: originalTransactionId, days: days, reason: reason, requestIdentifier: requestId, in: environment)
        {
        case .success(let answer) where answer.value.success == false:
            return ExtensionAnswer(newExpiry: nil, refusal: "Apple answered that the extension did not succeed")
        case .success(let answer): return ExtensionAnswer(newExpiry: answer.value.effectiveDate?.milliseconds, refusal: nil)
        case .failure(let failure): return ExtensionAnswer(newExpiry: nil, refusal: failure.description)
        }
    }

    /// `POST /inApps/v1/subscriptions/extend/mass`: every active subscriber of `productId`
    /// (in `storefronts`, or everywhere); Apple answers with the request id to poll.
    public func extendForAllSubscribers(
        productId: String, days: Int, reason: ExtendReason, requestIdentifier: String, storefronts: [String]? = nil,
        in environment: AppleEnvironment
    ) async -> Result<Answer<String>, ServerAPIFailure> {
        let body = ExtendBody(
            extendByDays: days, extendReasonCode: reason, requestIdentifier: requestIdentifier, productId: productId,
            storefrontCountryCodes: storefronts)
        return await call(.POST, "/inApps/v1/subscriptions/extend/mass", environment, json: body, as: MassExtensionStarted.self) {
            $0.requestIdentifier ?? requestIdentifier
        }
    }

    /// `extendForAllSubscribers` as the store's `extensions.extendAll` calls it.
    public func massExtensionRefusal(productId: String, days: Int, reasonCode: Int, requestId: String, environment: AppleEnvironment) async
        -> String?
    {
        let reason = ExtendReason(rawValue: reasonCode) ?? .undeclared
        switch await extendForAllSubscribers(productId: productId, days: days, reason: reason, requestIdentifier: requestId, in: environment) {
        case .success: return nil
        case .failure(let failure): return failure.description
        }
    }

    /// `extendForAllStatus` as the store's `extensions.refreshMass` calls it.
    public func massExtensionProgress(productId: String, requestId: String, environment: AppleEnvironment) async -> MassExtensionProgress {
        switch await extendForAllStatus(productId: productId, requestIdentifier: requestId, in: environment) {
        case .success(let answer):
            let status = answer.value
            return MassExtensionProgress(
                completeAt: status.complete == true ? status.completeDate?.milliseconds ?? .now() : nil, succeeded: status.succeededCount,
                failed: status.failedCount, refusal: nil)
        case .failure(let failure):
            return MassExtensionProgress(completeAt: nil, succeeded: nil, failed: nil, refusal: failure.description)
        }
    }

    /// Where an extension for all subscribers stands.
    public struct MassExtensionStatus: Sendable, Decodable, Equatable {
        public var requestIdentifier: String?
        public var complete: Bool?
        public var completeDate: AppleDate?
        public var succeededCount: Int64?
        public var failedCount: Int64?
    }

    /// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`
    public func extendForAllStatus(productId: String, requestIdentifier: String, in environment: AppleEnvironment) async -> Result<
        Answer<MassExtensionStatus>, ServerAPIFailure
    > {
        await call(
            .GET, "/inApps/v1/subscriptions/extend/mass/\(escaped(productId))/\(escaped(requestIdentifier))", environment, json: nil as NoContent?,
            as: MassExtensionStatus.self
        ) { $0 }
    }

    /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`: the purchase
    /// (and its later periods) carry `token` from now on, e.g. after a transfer to another account.
    public func setAppAccountToken(_ token: UUID, originalTransactionId: String, in environment: AppleEnvironment) async -> Result<
        Answer<NoContent>, ServerAPIFailure
    > {
        await call(
            .PUT, "/inApps/v1/transactions/\(escaped(originalTransactionId))/appAccountToken", environment,
            json: ["appAccountToken": token.uuidString.lowercased()], as: NoContent.self
        ) { $0 }
    }

    /// Finish Transaction: `POST /inApps/v1/transactions/{transactionId}/finish`, telling
    /// Apple the purchase was delivered.
    public func finishTransaction(_ transactionId: String, in environment: AppleEnvironment) async -> Result<Answer<NoContent>, ServerAPIFailure> {
        await call(.POST, "/inApps/v1/transactions/\(escaped(transactionId))/finish", environment, json: nil as NoContent?, as: NoContent.self) { $0 }
    }

    /// `finishTransaction` as the store's `apple.finish(transactionId:tell:)` calls it: nil
    /// when Apple took it, else why not.
    public func finishRefusal(transactionId: String, environment: AppleEnvironment) async -> String? {
        switch await finishTransaction(transactionId, in: environment) {
        case .success: nil
        case .failure(let failure): failure.description
        }
    }

    /// `lookUpOrder` as the store's `orders.findAppleOrder(_:asking:)` asks it: the invoice's
    /// verified transactions, Apple's "no such order", or why there is no answer.
    public func invoice(_ appleOrderId: String, environment: AppleEnvironment) async -> AppleOrderAnswer {
        switch await lookUpOrder(appleOrderId, in: environment) {
        case .success(let answer): .purchases(answer.value.compactMap(AppleTransaction.init))
        case .failure(let failure) where failure.isNotFound: .unknown
        case .failure(let failure): .failed(failure.description)
        }
    }

    /// `setAppAccountToken` as the store's `subscriptions.rebind` calls it.
    public func accountTokenRefusal(token: UUID, originalTransactionId: String, environment: AppleEnvironment) async -> String? {
        switch await setAppAccountToken(token, originalTransactionId: originalTransactionId, in: environment) {
        case .success: nil
        case .failure(let failure): failure.description
        }
    }

    /// `GET /inApps/v1/transactions/appTransactions/{anyTransactionId}`: the customer's
    /// app transaction (its `appTransactionId` is one per Apple Account), verified.
    public func appTransactionInfo(_ anyTransactionId: String, in environment: AppleEnvironment) async -> Result<
        Answer<JWSAppTransaction>, ServerAPIFailure
    > {
        await call(
            .GET, "/inApps/v1/transactions/appTransactions/\(escaped(anyTransactionId))", environment, json: nil as NoContent?,
            as: AppTransactionInfoResponse.self
        ) { try await verify($0.signedAppTransactionInfo, as: JWSAppTransaction.self) }
    }

    /// `POST /inApps/v1/notifications/test`: Apple sends a TEST notification to the
    /// configured URL; the token finds out how that went.
    public func requestTestNotification(in environment: AppleEnvironment) async -> Result<Answer<String>, ServerAPIFailure> {
        await call(.POST, "/inApps/v1/notifications/test", environment, json: nil as NoContent?, as: TestNotificationStarted.self) {
            $0.testNotificationToken
        }
    }

    /// A test notification and Apple's attempts to deliver it.
    public struct TestNotificationStatus: Sendable, Equatable {
        public var signedPayload: String
        /// Each attempt's date and Apple's `sendAttemptResult` (SUCCESS, NO_RESPONSE…).
        public var attempts: [(date: AppleDate?, result: String)]

        public static func == (a: Self, b: Self) -> Bool {
            a.signedPayload == b.signedPayload && a.attempts.map(\.result) == b.attempts.map(\.result)
        }
    }

    /// `GET /inApps/v1/notifications/test/{testNotificationToken}`
    public func testNotificationStatus(_ token: String, in environment: AppleEnvironment) async -> Result<
        Answer<TestNotificationStatus>, ServerAPIFailure
    > {
        await call(.GET, "/inApps/v1/notifications/test/\(escaped(token))", environment, json: nil as NoContent?, as: TestNotificationResponse.self) {
            TestNotificationStatus(signedPayload: $0.signedPayload, attempts: ($0.sendAttempts ?? []).map { ($0.attemptDate, $0.sendAttemptResult ?? "") })
        }
    }
}

/// An answer with no body to read (202 to consumption information, 200 to a token change).
public struct NoContent: Sendable, Codable, Equatable {}

struct ExtendBody: Encodable {
    var extendByDays: Int
    var extendReasonCode: ServerAPIClient.ExtendReason
    var requestIdentifier: String
    var productId: String?
    var storefrontCountryCodes: [String]?
}

struct MassExtensionStarted: Decodable {
    var requestIdentifier: String?
}

struct AppTransactionInfoResponse: Decodable {
    var signedAppTransactionInfo: String
}

struct TestNotificationStarted: Decodable {
    var testNotificationToken: String
}

struct TestNotificationResponse: Decodable {
    var signedPayload: String
    var sendAttempts: [Attempt]?

    struct Attempt: Decodable {
        var attemptDate: AppleDate?
        var sendAttemptResult: String?
    }
}
