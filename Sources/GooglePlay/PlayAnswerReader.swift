import Foundation
import OrderDomain

/// The Google Play adapter: reads Google's answers (androidpublisher v3's JSON, field names
/// and types as its discovery document gives them) into the facts the store keeps and the
/// content the rules read. A Play order (`GPA.…`) is a transaction; a subscription's
/// renewals (`GPA.…..0`) share its first order as their original, as Apple's periods share
/// their original transaction id.
enum PlayAnswerReader {
    enum Unreadable: Error { case answer(String) }

    /// `ProductPurchaseV2` → the token's facts.
    static func productFacts(_ body: Data, token: String, package: String) throws -> PlayPurchaseFacts {
        guard let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { throw Unreadable.answer("not a JSON object") }
        let item = (json["productLineItem"] as? [[String: Any]])?.first ?? [:]
        let offer = item["productOfferDetails"] as? [String: Any] ?? [:]
        let state: PlayPurchaseFacts.State =
            switch (json["purchaseStateContext"] as? [String: Any])?["purchaseState"] as? String {
            case "PENDING": .pending
            case "CANCELLED": .cancelled
            default: .purchased
            }
        return PlayPurchaseFacts(
            purchaseToken: token, packageName: package, productId: item["productId"] as? String ?? "", kind: .oneTime,
            orderId: json["orderId"] as? String, state: state,
            acknowledged: json["acknowledgementState"] as? String == "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
            consumed: offer["consumptionState"] as? String == "CONSUMPTION_STATE_CONSUMED", quantity: int(offer["quantity"]) ?? 1,
            refundableQuantity: int(offer["refundableQuantity"]), purchaseTime: millis(json["purchaseCompletionTime"]),
            obfuscatedAccountId: json["obfuscatedExternalAccountId"] as? String, obfuscatedProfileId: json["obfuscatedExternalProfileId"] as? String,
            regionCode: json["regionCode"] as? String, isTest: json["testPurchaseContext"] != nil)
    }

    /// `SubscriptionPurchaseV2` → the token's facts.
    static func subscriptionFacts(_ body: Data, token: String, package: String) throws -> PlayPurchaseFacts {
        guard let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { throw Unreadable.answer("not a JSON object") }
        let item = (json["lineItems"] as? [[String: Any]])?.first ?? [:]
        let subscriptionState = json["subscriptionState"] as? String
        let state: PlayPurchaseFacts.State =
            switch subscriptionState {
            case "SUBSCRIPTION_STATE_PENDING": .pending
            case "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED": .cancelled
            default: .purchased
            }
        let ids = json["externalAccountIdentifiers"] as? [String: Any] ?? [:]
        return PlayPurchaseFacts(
            purchaseToken: token, packageName: package, productId: item["productId"] as? String ?? "", kind: .subscription,
            orderId: item["latestSuccessfulOrderId"] as? String ?? json["latestOrderId"] as? String, state: state,
            acknowledged: json["acknowledgementState"] as? String == "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED", purchaseTime: millis(json["startTime"]),
            expiryTime: millis(item["expiryTime"]), subscriptionState: subscriptionState,
            autoRenew: (item["autoRenewingPlan"] as? [String: Any])?["autoRenewEnabled"] as? Bool,
            linkedPurchaseToken: json["linkedPurchaseToken"] as? String, obfuscatedAccountId: ids["obfuscatedExternalAccountId"] as? String,
            obfuscatedProfileId: ids["obfuscatedExternalProfileId"] as? String, regionCode: json["regionCode"] as? String,
            isTest: json["testPurchase"] != nil)
    }

    /// What the rules read of a token's facts: its paid order as a transaction (none while
    /// pending or cancelled), and for a subscription its renewal intent.
    static func content(_ facts: PlayPurchaseFacts, now: Millis = .now()) -> AppleReceiptContent {
        guard facts.state == .purchased else { return AppleReceiptContent(bundleId: facts.packageName, inApp: []) }
        let id = facts.orderId ?? facts.purchaseToken
        let first = facts.orderId.map(PlayChain.firstOrder) ?? facts.purchaseToken
        // Google gives a subscription's start, not its latest period's: a renewal is dated
        // when iapdesk learns of it (its owner is R8's question, not its date).
        let purchased = id == first ? (facts.purchaseTime ?? now) : now
        var transaction = AppleTransaction(
            transactionId: id, originalTransactionId: first, productId: facts.productId, quantity: facts.quantity, purchaseDate: purchased,
            originalPurchaseDate: facts.purchaseTime, expiresDate: facts.kind == .subscription ? facts.expiryTime : nil)
        transaction.purchaseToken = facts.purchaseToken
        transaction.appAccountToken = nil
        guard facts.kind == .subscription else { return AppleReceiptContent(bundleId: facts.packageName, inApp: [transaction]) }
        var renewal = AppleRenewalInfo(
            originalTransactionId: first, productId: facts.productId,
            autoRenewEnabled: facts.autoRenew ?? (facts.subscriptionState == "SUBSCRIPTION_STATE_ACTIVE"))
        switch facts.subscriptionState {
        case "SUBSCRIPTION_STATE_IN_GRACE_PERIOD":
            renewal.isInBillingRetry = true
            renewal.gracePeriodExpiresDate = facts.expiryTime
        case "SUBSCRIPTION_STATE_ON_HOLD":
            renewal.isInBillingRetry = true
        case "SUBSCRIPTION_STATE_CANCELED", "SUBSCRIPTION_STATE_EXPIRED":
            renewal.autoRenewEnabled = false
            renewal.expirationIntent = 1
        default: break
        }
        return AppleReceiptContent(bundleId: facts.packageName, inApp: [transaction], latestReceiptInfo: [transaction], pendingRenewals: [renewal])
    }

    /// A page of `VoidedPurchasesListResponse`.
    static func voidedPage(_ body: Data) throws -> (records: [PlayVoidedPurchase], nextPageToken: String?) {
        guard let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { throw Unreadable.answer("not a JSON object") }
        let records = (json["voidedPurchases"] as? [[String: Any]] ?? []).compactMap { v -> PlayVoidedPurchase? in
            guard let token = v["purchaseToken"] as? String, let orderId = v["orderId"] as? String, let voided = int64(v["voidedTimeMillis"]) else {
                return nil
            }
            return PlayVoidedPurchase(
                purchaseToken: token, orderId: orderId, purchaseTime: int64(v["purchaseTimeMillis"]) ?? voided, voidedTime: voided,
                source: int(v["voidedSource"]) ?? 0, reason: int(v["voidedReason"]) ?? 0, quantity: int(v["voidedQuantity"]))
        }
        return (records, (json["tokenPagination"] as? [String: Any])?["nextPageToken"] as? String)
    }

    /// The Orders API's `Order`: the purchase token it was paid under, its product and state.
    static func order(_ body: Data, package: String) throws -> GoogleOrderAnswer {
        guard let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any], let token = json["purchaseToken"] as? String else {
            throw Unreadable.answer("no purchaseToken in the order")
        }
        let product = (json["lineItems"] as? [[String: Any]])?.first?["productId"] as? String
        return .found(purchaseToken: token, productId: product, state: json["state"] as? String ?? "STATE_UNSPECIFIED", package: package)
    }

    /// Google's error answer in a few words: `reason: message`.
    static func errorReason(_ body: Data) -> String {
        guard let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any], let error = json["error"] as? [String: Any] else {
            return "an answer that is not Google's error JSON"
        }
        let reason = (error["errors"] as? [[String: Any]])?.first?["reason"] as? String ?? error["status"] as? String
        let message = (error["message"] as? String).map { String($0.prefix(200)) }
        return [reason, message].compactMap { $0 }.joined(separator: ": ")
    }

    /// int64 fields come as strings, int32 as numbers.
    static func int64(_ value: Any?) -> Int64? {
        if let text = value as? String { return Int64(text) }
        return (value as? NSNumber)?.int64Value
    }

    static func int(_ value: Any?) -> Int? { int64(value).map { Int(clamping: $0) } }

    /// An RFC 3339 time, with or without fractional seconds.
    static func millis(_ value: Any?) -> Millis? {
        guard let text = value as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return Millis((date.timeIntervalSince1970 * 1000).rounded()) }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text).map { Millis(($0.timeIntervalSince1970 * 1000).rounded()) }
    }
}
