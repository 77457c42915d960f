import Foundation

/// What happens at Google Play and is pushed to the developer: each change to the ledger
/// made through these is followed by the real-time developer notification Google sends for
/// it. The test controls (`PlayControlRoutes`) reach every one.
extension GooglePlaySimulator {
    /// The subscription notification types (`SUBSCRIPTION_…`) by their numbers.
    public enum SubscriptionEvent: Int, Sendable {
        case recovered = 1, renewed = 2, canceled = 3, purchased = 4, onHold = 5, inGracePeriod = 6, restarted = 7, deferred = 9, paused = 10
        case pauseScheduleChanged = 11, revoked = 12, expired = 13, pendingPurchaseCanceled = 20
    }

    /// A purchase; for a pending one Google says nothing until the payment settles. A
    /// one-time product sends ONE_TIME_PRODUCT_PURCHASED (1), a subscription SUBSCRIPTION_PURCHASED (4).
    @discardableResult
    public func purchaseAndNotify(
        productId: String, packageName: String? = nil, account: String? = nil, profile: String? = nil, quantity: Int = 1, pending: Bool = false,
        test: Bool = false, at date: Date = Date()
    ) async throws -> PlayPurchase {
        let purchase = try await ledger.buy(
            packageName: packageName ?? self.packageName, productId: productId, account: account, profile: profile, quantity: quantity, pending: pending,
            test: test, at: date)
        if !pending { await notifyPurchased(purchase, at: date) }
        return purchase
    }

    /// A pending payment settled (notified as a purchase) or was abandoned (ONE_TIME_PRODUCT_CANCELED,
    /// SUBSCRIPTION_PENDING_PURCHASE_CANCELED).
    @discardableResult
    public func settlePendingAndNotify(_ token: String, paid: Bool, at date: Date = Date()) async throws -> PlayPurchase {
        let purchase = paid ? try await ledger.completePending(token, at: date) : try await ledger.cancelPending(token)
        if paid {
            await notifyPurchased(purchase, at: date)
        } else if purchase.kind == .subscription {
            await notify(purchase, .pendingPurchaseCanceled, at: date)
        } else {
            await notifyOneTime(purchase, type: 2, at: date)
        }
        return purchase
    }

    @discardableResult
    public func renewAndNotify(_ token: String, at date: Date = Date()) async throws -> PlayPurchase {
        let renewed = try await ledger.renew(token)
        await notify(renewed, .renewed, at: date)
        return renewed
    }

    @discardableResult
    public func cancelAndNotify(_ token: String, by who: String = "user", at date: Date = Date()) async throws -> PlayPurchase {
        let canceled = try await ledger.cancel(token, by: who, at: date)
        await notify(canceled, .canceled, at: date)
        return canceled
    }

    @discardableResult
    public func restartAndNotify(_ token: String, at date: Date = Date()) async throws -> PlayPurchase {
        let restarted = try await ledger.restart(token)
        await notify(restarted, .restarted, at: date)
        return restarted
    }

    /// Billing trouble and its ends: grace (access kept), account hold (access lost),
    /// recovered (paid again: a new period), paused, expired.
    @discardableResult
    public func subscriptionEventAndNotify(_ token: String, _ event: SubscriptionEvent, pausedUntil: Date? = nil, at date: Date = Date()) async throws
        -> PlayPurchase
    {
        let changed: PlayPurchase
        switch event {
        case .inGracePeriod: changed = try await ledger.setState(token, .inGracePeriod)
        case .onHold: changed = try await ledger.setState(token, .onHold)
        case .paused: changed = try await ledger.setState(token, .paused, pausedUntil: pausedUntil ?? date.addingTimeInterval(30 * 86_400))
        case .recovered: changed = try await ledger.renew(token)
        case .expired: changed = try await ledger.expire(token, at: date)
        default: throw PlaySimulatorError.refused(400, "invalid", "event \(event) has a control of its own")
        }
        await notify(changed, event, at: date)
        return changed
    }

    /// An upgrade or downgrade: a new token linked to the old (SUBSCRIPTION_PURCHASED for it).
    @discardableResult
    public func changePlanAndNotify(_ token: String, to productId: String, at date: Date = Date()) async throws -> PlayPurchase {
        let replacement = try await ledger.changePlan(token, to: productId, at: date)
        await notifyPurchased(replacement, at: date)
        return replacement
    }

    /// Google voids a purchase (a refund, a chargeback): voidedPurchaseNotification, full or
    /// quantity-based; a voided subscription is revoked (SUBSCRIPTION_REVOKED too).
    @discardableResult
    public func voidAndNotify(_ token: String, quantity: Int? = nil, source: Int = 0, reason: Int = 1, at date: Date = Date()) async throws
        -> VoidedRecord
    {
        let record = try await ledger.void(token, quantity: quantity, source: source, reason: reason, at: date)
        await notifyVoided(record, at: date)
        return record
    }

    /// The voided-purchase notification of `record` (and SUBSCRIPTION_REVOKED for a subscription).
    func notifyVoided(_ record: VoidedRecord, at date: Date) async {
        guard let purchase = await ledger.purchase(token: record.token) else { return }
        await notifications.publish(
            envelope(
                purchase,
                [
                    "voidedPurchaseNotification": [
                        "purchaseToken": record.token, "orderId": record.orderId, "productType": record.isSubscription ? 1 : 2,
                        "refundType": record.quantity == nil ? 1 : 2,
                    ]
                ], at: date), at: date)
        if record.isSubscription { await notify(purchase, .revoked, at: date) }
    }

    /// Google's own refund of what the developer never acknowledged within three days.
    @discardableResult
    public func refundUnacknowledgedAndNotify(at date: Date = Date()) async -> [VoidedRecord] {
        let voided = await ledger.refundUnacknowledged(at: date)
        for record in voided {
            guard let purchase = await ledger.purchase(token: record.token) else { continue }
            await notifications.publish(
                envelope(
                    purchase,
                    [
                        "voidedPurchaseNotification": [
                            "purchaseToken": record.token, "orderId": record.orderId, "productType": record.isSubscription ? 1 : 2, "refundType": 1,
                        ]
                    ], at: date), at: date)
        }
        return voided
    }

    /// A test notification, as Play Console's "Send test notification" button sends.
    public func testNotification(packageName: String? = nil, at date: Date = Date()) async {
        await notifications.publish(
            [
                "version": "1.0", "packageName": packageName ?? self.packageName, "eventTimeMillis": "\(Int64(date.timeIntervalSince1970 * 1000))",
                "testNotification": ["version": "1.0"],
            ], at: date)
    }

    func notifyPurchased(_ purchase: PlayPurchase, at date: Date) async {
        if purchase.kind == .subscription {
            await notify(purchase, .purchased, at: date)
        } else {
            await notifyOneTime(purchase, type: 1, at: date)
        }
    }

    func notify(_ purchase: PlayPurchase, _ event: SubscriptionEvent, at date: Date) async {
        await notifications.publish(
            envelope(
                purchase,
                [
                    "subscriptionNotification": [
                        "version": "1.0", "notificationType": event.rawValue, "purchaseToken": purchase.token, "subscriptionId": purchase.productId,
                    ]
                ], at: date), at: date)
    }

    func notifyOneTime(_ purchase: PlayPurchase, type: Int, at date: Date) async {
        await notifications.publish(oneTime(purchase, type: type, at: date), at: date)
    }

    /// A one-time product's notification (`type` 1 purchased, 2 cancelled), not sent: its push
    /// body under a fresh message id, for a client that posts it itself.
    public func oneTimeMessage(_ purchase: PlayPurchase, type: Int = 1, at date: Date = Date()) async -> PushSender.Message {
        await notifications.message(oneTime(purchase, type: type, at: date), at: date)
    }

    private func oneTime(_ purchase: PlayPurchase, type: Int, at date: Date) -> [String: Any] {
        envelope(
            purchase,
            ["oneTimeProductNotification": ["version": "1.0", "notificationType": type, "purchaseToken": purchase.token, "sku": purchase.productId]],
            at: date)
    }

    func envelope(_ purchase: PlayPurchase, _ body: [String: Any], at date: Date) -> [String: Any] {
        var notification: [String: Any] = [
            "version": "1.0", "packageName": purchase.packageName, "eventTimeMillis": "\(Int64((date.timeIntervalSince1970 * 1000).rounded()))",
        ]
        notification.merge(body) { $1 }
        return notification
    }
}
