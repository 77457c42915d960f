import Foundation

/// The androidpublisher v3 resources as the simulator answers them: Google's field names and
/// types as the discovery document gives them (int64 as strings, times in RFC 3339, money as
/// units and nanos), built from the ledger.
enum PublisherAnswers {
    static func millis(_ date: Date) -> String { "\(Int64((date.timeIntervalSince1970 * 1000).rounded()))" }
    static func time(_ date: Date) -> String { PushSender.rfc3339(date) }

    static func money(_ micros: Int64, _ currency: String) -> [String: Any] {
        ["currencyCode": currency, "units": "\(micros / 1_000_000)", "nanos": Int((micros % 1_000_000) * 1000)]
    }

    /// `ProductPurchase` (purchases.products.get).
    static func productPurchase(_ p: PlayPurchase) -> [String: Any] {
        var answer: [String: Any] = [
            "kind": "androidpublisher#productPurchase", "purchaseTimeMillis": millis(p.purchaseTime),
            "purchaseState": p.state == .purchased ? 0 : p.state == .cancelled ? 1 : 2, "consumptionState": p.consumed ? 1 : 0,
            "developerPayload": "", "acknowledgementState": p.acknowledged ? 1 : 0, "purchaseToken": p.token, "productId": p.productId,
            "quantity": p.quantity, "refundableQuantity": p.refundableQuantity, "regionCode": p.regionCode,
        ]
        answer["orderId"] = p.orderId
        if p.isTest { answer["purchaseType"] = 0 }
        answer["obfuscatedExternalAccountId"] = p.obfuscatedAccountId
        answer["obfuscatedExternalProfileId"] = p.obfuscatedProfileId
        return answer
    }

    /// `ProductPurchaseV2` (purchases.productsv2.getproductpurchasev2).
    static func productPurchaseV2(_ p: PlayPurchase) -> [String: Any] {
        let state =
            switch p.state {
            case .purchased: "PURCHASED"
            case .cancelled: "CANCELLED"
            case .pending: "PENDING"
            }
        var answer: [String: Any] = [
            "kind": "androidpublisher#productPurchaseV2",
            "productLineItem": [
                [
                    "productId": p.productId,
                    "productOfferDetails": [
                        "consumptionState": p.consumed ? "CONSUMPTION_STATE_CONSUMED" : "CONSUMPTION_STATE_YET_TO_BE_CONSUMED", "quantity": p.quantity,
                        "refundableQuantity": p.refundableQuantity, "purchaseOptionId": "default",
                    ] as [String: Any],
                ] as [String: Any]
            ],
            "purchaseStateContext": ["purchaseState": state], "regionCode": p.regionCode,
            "acknowledgementState": p.acknowledged ? "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED" : "ACKNOWLEDGEMENT_STATE_PENDING",
        ]
        answer["orderId"] = p.orderId
        if p.state != .pending { answer["purchaseCompletionTime"] = time(p.purchaseTime) }
        if p.isTest { answer["testPurchaseContext"] = ["fopType": "TEST"] }
        answer["obfuscatedExternalAccountId"] = p.obfuscatedAccountId
        answer["obfuscatedExternalProfileId"] = p.obfuscatedProfileId
        return answer
    }

    /// `SubscriptionPurchaseV2` (purchases.subscriptionsv2.get).
    static func subscriptionPurchaseV2(_ p: PlayPurchase, product: PlayProduct?, now: Date = Date()) -> [String: Any] {
        var item: [String: Any] = [
            "productId": p.productId,
            "offerDetails": ["basePlanId": product?.basePlanId ?? "monthly"],
        ]
        if let end = p.expiryTime { item["expiryTime"] = time(end) }
        if let order = p.latestOrderId { item["latestSuccessfulOrderId"] = order }
        item["autoRenewingPlan"] =
            ["autoRenewEnabled": p.autoRenew, "recurringPrice": money(product?.priceMicros ?? p.priceMicros, p.currency)] as [String: Any]
        // Google says EXPIRED once every item's end has passed, whatever state it was in.
        var state = p.subscriptionState ?? .active
        if let end = p.expiryTime, end <= now, [.active, .canceled, .inGracePeriod].contains(state) { state = .expired }
        var answer: [String: Any] = [
            "kind": "androidpublisher#subscriptionPurchaseV2", "regionCode": p.regionCode, "lineItems": [item], "startTime": time(p.purchaseTime),
            "subscriptionState": state.rawValue, "etag": "\(p.etag)",
            "acknowledgementState": p.acknowledged ? "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED" : "ACKNOWLEDGEMENT_STATE_PENDING",
        ]
        answer["linkedPurchaseToken"] = p.linkedPurchaseToken
        if p.isTest { answer["testPurchase"] = [String: Any]() }
        if p.obfuscatedAccountId != nil || p.obfuscatedProfileId != nil {
            var ids: [String: Any] = [:]
            ids["obfuscatedExternalAccountId"] = p.obfuscatedAccountId
            ids["obfuscatedExternalProfileId"] = p.obfuscatedProfileId
            answer["externalAccountIdentifiers"] = ids
        }
        if state == .canceled || (p.canceledBy != nil && state == .expired) {
            let context: [String: Any] =
                switch p.canceledBy {
                case "developer": ["developerInitiatedCancellation": [String: Any]()]
                case "system": ["systemInitiatedCancellation": [String: Any]()]
                case "replacement": ["replacementCancellation": [String: Any]()]
                default: ["userInitiatedCancellation": ["cancelTime": time(p.canceledAt ?? now)]]
                }
            answer["canceledStateContext"] = context
        }
        if state == .paused, let until = p.pausedUntil { answer["pausedStateContext"] = ["autoResumeTime": time(until)] }
        return answer
    }

    /// A `VoidedPurchase`.
    static func voided(_ v: VoidedRecord) -> [String: Any] {
        var answer: [String: Any] = [
            "kind": "androidpublisher#voidedPurchase", "purchaseToken": v.token, "orderId": v.orderId, "purchaseTimeMillis": millis(v.purchaseTime),
            "voidedTimeMillis": millis(v.voidedTime), "voidedSource": v.source, "voidedReason": v.reason,
        ]
        answer["voidedQuantity"] = v.quantity
        return answer
    }

    /// An `Order` (orders.get), from the purchase it paid for.
    static func order(_ orderId: String, of p: PlayPurchase, product: PlayProduct?, refunded: VoidedRecord?) -> [String: Any] {
        let period = p.periods.first { $0.orderId == orderId }
        var line: [String: Any] = ["productId": p.productId, "productTitle": p.productId, "total": money(p.priceMicros, p.currency)]
        if let period {
            line["subscriptionDetails"] = [
                "basePlanId": product?.basePlanId ?? "monthly", "offerPhase": "BASE", "servicePeriodStartTime": time(period.start),
                "servicePeriodEndTime": time(period.end),
            ]
        } else {
            line["oneTimePurchaseDetails"] = ["quantity": p.quantity, "purchaseOptionId": "default"] as [String: Any]
        }
        let created = period?.start ?? p.purchaseTime
        var history: [String: Any] = ["processedEvent": ["eventTime": time(created)]]
        var state = p.state == .pending ? "PENDING" : p.state == .cancelled ? "CANCELED" : "PROCESSED"
        if let refunded {
            if refunded.quantity == nil {
                state = "REFUNDED"
                history["refundEvent"] = ["eventTime": time(refunded.voidedTime), "refundReason": refunded.reason == 7 ? "CHARGEBACK" : "OTHER"]
            } else {
                state = "PARTIALLY_REFUNDED"
                history["partialRefundEvents"] = [
                    ["createTime": time(refunded.voidedTime), "processTime": time(refunded.voidedTime), "state": "PROCESSED_SUCCESSFULLY"]
                ]
            }
        }
        return [
            "orderId": orderId, "purchaseToken": p.token, "state": state, "createTime": time(created),
            "lastEventTime": time(refunded?.voidedTime ?? created), "lineItems": [line], "orderHistory": history,
            "total": money(p.priceMicros, p.currency), "tax": money(0, p.currency), "salesChannel": "IN_APP",
        ]
    }

    /// Google's error body: `{"error": {"code", "message", "status", "errors": [{domain, reason, message}]}}`.
    static func error(_ status: Int, _ reason: String, _ message: String) -> (Int, [String: Any]) {
        let statusName =
            switch status {
            case 400: "INVALID_ARGUMENT"
            case 401: "UNAUTHENTICATED"
            case 403: "PERMISSION_DENIED"
            case 404: "NOT_FOUND"
            case 409: "ABORTED"
            case 410: "FAILED_PRECONDITION"
            default: "INTERNAL"
            }
        return (
            status,
            [
                "error": [
                    "code": status, "message": message, "status": statusName,
                    "errors": [["domain": "androidpublisher", "reason": reason, "message": message]],
                ] as [String: Any]
            ]
        )
    }
}
