import Foundation
import OrderDomain

/// Reads a Cloud Pub/Sub push (`{"message": {"data", "messageId", "publishTime"},
/// "subscription"}`) into the notification the store keeps: its `data` is Google Play's
/// DeveloperNotification, named by type (``PlayNotificationType``) and keyed by the Pub/Sub
/// message id (a redelivery repeats it, so it is stored once). A message of another package
/// or one that does not read is kept as rejected; a type iapdesk does not know is kept raw.
public struct PlayNotificationDecoder: Sendable {
    public let packageNames: [String]

    public init(packageNames: [String]) { self.packageNames = packageNames }

    public func decode(push body: String) -> IncomingNotification {
        var facts = NotificationFacts()
        /// What the store keeps: `raw` (the push, or its decoded message once it reads) and the facts so far.
        func kept(_ raw: String, _ rejection: NotificationRejection?) -> IncomingNotification {
            IncomingNotification(
                endpoint: .production, via: .receiver, raw: String(raw.prefix(16_384)), rejection: rejection, facts: facts, marketplace: .googlePlay)
        }
        func rejected(_ why: NotificationRejection) -> IncomingNotification { kept(body, why) }
        guard let push = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], let message = push["message"] as? [String: Any]
        else { return rejected(.notPubSubPush) }
        guard let messageId = message["messageId"] as? String ?? message["message_id"] as? String, !messageId.isEmpty else {
            return rejected(.noMessageId)
        }
        facts.uuid = "play:\(messageId.prefix(100))"
        guard let data = (message["data"] as? String).flatMap({ Data(base64Encoded: $0) }),
            let notification = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return rejected(.notDeveloperNotification) }
        let raw = String(decoding: data, as: UTF8.self)
        facts.app = notification["packageName"] as? String
        facts.signedDate = PlayAnswerReader.int64(notification["eventTimeMillis"])
        facts.environment = "Production"
        guard let package = facts.app, packageNames.contains(package) else {
            return kept(raw, .otherPackage(facts.app))
        }
        if let sub = notification["subscriptionNotification"] as? [String: Any] {
            let number = PlayAnswerReader.int(sub["notificationType"]) ?? 0
            facts.type = PlayNotificationType.subscription[number] ?? PlayNotificationType.unknown("SUBSCRIPTION", number)
            facts.purchaseToken = sub["purchaseToken"] as? String
        } else if let oneTime = notification["oneTimeProductNotification"] as? [String: Any] {
            let number = PlayAnswerReader.int(oneTime["notificationType"]) ?? 0
            facts.type = PlayNotificationType.oneTime[number] ?? PlayNotificationType.unknown("ONE_TIME_PRODUCT", number)
            facts.purchaseToken = oneTime["purchaseToken"] as? String
        } else if let voided = notification["voidedPurchaseNotification"] as? [String: Any] {
            facts.type = PlayNotificationType.voided
            facts.subtype = PlayAnswerReader.int(voided["refundType"]) == 2 ? "QUANTITY_BASED_PARTIAL_REFUND" : "FULL_REFUND"
            facts.purchaseToken = voided["purchaseToken"] as? String
        } else if let review = notification["pendingRefundReviewNotification"] as? [String: Any] {
            facts.type = PlayNotificationType.refundReview
            facts.subtype = (review["orderId"] as? String).map { "ORDER_\($0.prefix(64))" }
        } else if notification["testNotification"] != nil {
            facts.type = PlayNotificationType.test
        } else {
            facts.type = "PLAY_UNKNOWN"
        }
        if let token = facts.purchaseToken, !PlaySubmission.isPlausibleToken(token) {
            facts.purchaseToken = nil
            return kept(raw, .malformedPurchaseToken)
        }
        return kept(raw, nil)
    }
}
