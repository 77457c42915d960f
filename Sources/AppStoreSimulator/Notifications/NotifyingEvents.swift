import Foundation

/// What happens at Apple and is told to the developer's server: each change to the ledger
/// made through these is followed by the V2 notification Apple sends for it, with the
/// subtype Apple gives it. The test controls (`ControlRoutes`) reach every one.
extension AppStoreSimulator {
    /// A purchase from the catalogue and its notification: ONE_TIME_CHARGE for consumables,
    /// non-consumables and non-renewing subscriptions; SUBSCRIBED/INITIAL_BUY for a first
    /// subscription in a group, SUBSCRIBED/RESUBSCRIBE (same original transaction) for an
    /// Apple Account whose subscription in the group had ended. A purchase in a group the
    /// account is subscribed to is a change of product (`changeProductAndNotify`).
    ///
    /// `offer` is the offer redeemed with the purchase (an offer code for a one-time product,
    /// type 3; a win-back, type 4); `commitment` bills a subscription monthly with that many
    /// committed payments. The notification is signed at the purchase's date, in the past too.
    @discardableResult
    public func purchaseAndNotify(
        appleId: String, productId: String, sandbox: Bool = false, at date: Date = Date(), appAccountToken: String? = nil,
        quantity: Int = 1, invoice: String? = nil, offer: (type: Int, identifier: String?)? = nil, commitment: Int? = nil
    ) async throws -> SimulatedPurchase {
        guard let product = await ledger.catalogue[productId] else { throw SimulatorError.unknown("product \(productId) in the catalogue") }
        if product.kind == .autoRenewable, let group = product.group,
            let current = await ledger.latestSubscription(appleId: appleId, group: group, sandbox: sandbox)
        {
            if current.subscriptionStatus(at: date) != 2 {
                return try await changeProductAndNotify(originalTransactionId: current.originalTransactionId, to: productId, at: date)
            }
            var again = try await ledger.resubscribe(current.originalTransactionId, to: product, at: date, appAccountToken: appAccountToken)
            if let offer {
                again = try await ledger.update(again.transactionId) { ($0.offerType, $0.offerIdentifier) = (offer.type, offer.identifier) }
            }
            await notifications.send(try await notification("SUBSCRIBED", subtype: "RESUBSCRIBE", about: again, signedAt: date))
            return again
        }
        let purchase = await ledger.purchase(
            appleId: appleId, productId: productId, sandbox: sandbox, at: date, appAccountToken: appAccountToken, quantity: quantity, invoice: invoice,
            offer: offer, commitment: commitment)
        let subscription = product.kind == .autoRenewable
        await notifications.send(
            try await notification(
                subscription ? "SUBSCRIBED" : "ONE_TIME_CHARGE", subtype: subscription ? "INITIAL_BUY" : nil, about: purchase, signedAt: date))
        return purchase
    }

    /// The next period: DID_RENEW (BILLING_RECOVERY when Apple had been retrying the charge).
    /// Family members sharing the subscription renew with it, each with a DID_RENEW of
    /// their own transaction.
    @discardableResult
    public func renewAndNotify(originalTransactionId otid: String, period: TimeInterval? = nil, at date: Date = Date()) async throws -> SimulatedPurchase {
        let recovering = await ledger.chain(originalTransactionId: otid).last?.inBillingRetry == true
        let renewal = try await ledger.renew(originalTransactionId: otid, period: period)
        await notifications.send(try await notification("DID_RENEW", subtype: recovering ? "BILLING_RECOVERY" : nil, about: renewal, signedAt: date))
        for member in await ledger.renewFamily(of: renewal) {
            await notifications.send(try await notification("DID_RENEW", about: member, signedAt: date))
        }
        return renewal
    }

    /// The renewal charge failed: DID_FAIL_TO_RENEW, in billing retry; with `graceDays`, in a
    /// billing grace period (subtype GRACE_PERIOD) during which the player keeps the service.
    public func failRenewalAndNotify(originalTransactionId otid: String, graceDays: Int? = nil) async throws {
        let latest = try await latest(otid)
        let failed = try await ledger.update(latest.transactionId) { p in
            p.inBillingRetry = true
            p.gracePeriodExpiresDate = graceDays.map { (p.expiresDate ?? Date()).addingTimeInterval(Double($0) * 86_400) }
        }
        await notifications.send(try await notification("DID_FAIL_TO_RENEW", subtype: graceDays == nil ? nil : "GRACE_PERIOD", about: failed))
    }

    /// The billing grace period ended without a successful charge: GRACE_PERIOD_EXPIRED.
    public func endGracePeriodAndNotify(originalTransactionId otid: String, at date: Date = Date()) async throws {
        let latest = try await latest(otid)
        let ended = try await ledger.update(latest.transactionId) { $0.gracePeriodExpiresDate = date }
        await notifications.send(try await notification("GRACE_PERIOD_EXPIRED", about: ended, signedAt: date))
    }

    /// Apple's reasons a subscription expires (EXPIRED's subtypes).
    public enum ExpiryReason: String, Sendable, CaseIterable {
        case voluntary = "VOLUNTARY", billingRetry = "BILLING_RETRY", priceIncrease = "PRICE_INCREASE", productNotForSale = "PRODUCT_NOT_FOR_SALE"
    }

    /// The subscription's last period ended without a renewal: EXPIRED. Without a reason,
    /// the one the subscription's state gives (billing retry, a price increase not agreed
    /// to, or the customer's choice).
    public func expireAndNotify(originalTransactionId otid: String, reason: ExpiryReason? = nil, at date: Date = Date()) async throws {
        let latest = try await latest(otid)
        let why = reason ?? (latest.inBillingRetry == true ? .billingRetry : latest.priceIncreaseStatus == 0 ? .priceIncrease : .voluntary)
        let expired = try await ledger.update(latest.transactionId) { p in
            if let end = p.expiresDate, end > date { p.expiresDate = date }
            p.autoRenew = false
            p.gracePeriodExpiresDate = nil
            p.inBillingRetry = why == .billingRetry ? false : p.inBillingRetry
        }
        await ledger.setAutoRenew(originalTransactionId: otid, false)
        await notifications.send(try await notification("EXPIRED", subtype: why.rawValue, about: expired, signedAt: date.addingTimeInterval(0.001)))
    }

    /// A move within the subscription group: DID_CHANGE_RENEWAL_PREF. To a higher level
    /// (UPGRADE) or the same level and duration (a crossgrade) it takes effect at once: a
    /// new transaction, the old one `isUpgraded`. To a lower level or another duration
    /// (DOWNGRADE) it waits for the next renewal. Back to the current product (no subtype)
    /// cancels a waiting downgrade.
    @discardableResult
    public func changeProductAndNotify(originalTransactionId otid: String, to productId: String, at date: Date = Date()) async throws -> SimulatedPurchase {
        let latest = try await latest(otid)
        let catalogue = await ledger.catalogue
        guard let target = catalogue[productId], let current = catalogue[latest.productId], target.group != nil, target.group == current.group else {
            throw SimulatorError.refused(code: 4_000_023, "\(productId) is not in the subscription group of \(latest.productId)")
        }
        if productId == latest.productId {
            let kept = try await ledger.update(latest.transactionId) { $0.autoRenewProductId = nil }
            await notifications.send(try await notification("DID_CHANGE_RENEWAL_PREF", about: kept, signedAt: date))
            return kept
        }
        let immediate = (target.level ?? 0) < (current.level ?? 0) || (target.level == current.level && target.period == current.period)
        guard immediate else {
            let waiting = try await ledger.update(latest.transactionId) { $0.autoRenewProductId = productId }
            await notifications.send(try await notification("DID_CHANGE_RENEWAL_PREF", subtype: "DOWNGRADE", about: waiting, signedAt: date))
            return waiting
        }
        let upgraded = try await ledger.upgrade(latest, to: target, at: date)
        await notifications.send(try await notification("DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", about: upgraded, signedAt: date))
        return upgraded
    }

    /// Apple refunded the transaction, in full or `percentage` thousandths of a percent of it: REFUND.
    public func refundAndNotify(transactionId: String, reason: Int = 0, percentage: Int? = nil, at date: Date = Date()) async throws {
        try await ledger.refund(transactionId: transactionId, reason: reason, percentage: percentage, at: date)
        try await notify("REFUND", transactionId: transactionId, at: date)
    }

    /// Apple turned the customer's refund request down: REFUND_DECLINED.
    public func declineRefundAndNotify(transactionId: String) async throws {
        try await notify("REFUND_DECLINED", transactionId: transactionId)
    }

    /// Apple took back a refund it had granted: REFUND_REVERSED.
    public func reverseRefundAndNotify(transactionId: String) async throws {
        try await ledger.reverseRefund(transactionId: transactionId)
        try await notify("REFUND_REVERSED", transactionId: transactionId)
    }

    /// The customer asked for a refund: CONSUMPTION_REQUEST, with the reason they gave
    /// (UNINTENDED_PURCHASE, FULFILLMENT_ISSUE, UNSATISFIED_WITH_PURCHASE, LEGAL, OTHER).
    public func requestRefundAndNotify(transactionId: String, reason: String = "UNSATISFIED_WITH_PURCHASE") async throws {
        guard let purchase = await ledger.purchase(transactionId: transactionId) else { throw SimulatorError.unknown("transaction \(transactionId)") }
        await notifications.send(try await notification("CONSUMPTION_REQUEST", about: purchase, consumptionRequestReason: reason))
    }

    /// Family Sharing access taken back: REVOKE.
    public func revokeAndNotify(transactionId: String) async throws {
        try await ledger.revoke(transactionId: transactionId)
        try await notify("REVOKE", transactionId: transactionId)
    }

    /// The purchaser shares a non-consumable or subscription with a family member: the
    /// member gets a transaction of their own, `FAMILY_SHARED`, and the notification a
    /// purchase of it sends (SUBSCRIBED or ONE_TIME_CHARGE).
    @discardableResult
    public func shareWithFamilyAndNotify(transactionId: String, member: String) async throws -> SimulatedPurchase {
        let shared = try await ledger.share(transactionId, with: member)
        let subscription = shared.kind == .autoRenewable
        await notifications.send(
            try await notification(subscription ? "SUBSCRIBED" : "ONE_TIME_CHARGE", subtype: subscription ? "INITIAL_BUY" : nil, about: shared))
        return shared
    }

    /// A price increase that needs the subscriber's consent: PRICE_INCREASE/PENDING until
    /// they answer, then PRICE_INCREASE/ACCEPTED (or, not agreed, EXPIRED/PRICE_INCREASE later).
    public func priceIncreaseAndNotify(originalTransactionId otid: String, accepted: Bool) async throws {
        let latest = try await latest(otid)
        let changed = try await ledger.update(latest.transactionId) { $0.priceIncreaseStatus = accepted ? 1 : 0 }
        await notifications.send(try await notification("PRICE_INCREASE", subtype: accepted ? "ACCEPTED" : "PENDING", about: changed))
    }

    /// The subscriber redeemed a promotional offer (type 2) or an offer code (type 3) for
    /// their active subscription: OFFER_REDEEMED; the offer applies from the next renewal.
    public func redeemOfferAndNotify(originalTransactionId otid: String, offerIdentifier: String, offerType: Int = 2) async throws {
        let latest = try await latest(otid)
        let changed = try await ledger.update(latest.transactionId) { p in
            p.offerType = offerType
            p.offerIdentifier = offerIdentifier
        }
        await notifications.send(try await notification("OFFER_REDEEMED", about: changed))
    }

    /// A parent withdrew consent for a child's use of the app (Declared Age Range):
    /// RESCIND_CONSENT, about the app transaction, with no purchase in it.
    public func rescindConsentAndNotify(appleId: String, sandbox: Bool = false, at date: Date = Date()) async throws {
        let appData = NotificationPayload.AppData(
            bundleId: bundleId, environment: serverAPI.environment(sandbox),
            signedAppTransactionInfo: try await serverAPI.signAppTransaction(appleId: appleId, sandbox: sandbox, at: date))
        await notifications.send(
            try notification(
                NotificationPayload(
                    notificationType: "RESCIND_CONSENT", notificationUUID: UUID().uuidString.lowercased(), signedDate: date.milliseconds,
                    appData: appData),
                sandbox: sandbox, about: [SimulatedPurchase.appTransactionId(appleId: appleId, sandbox: sandbox)]))
    }

    /// DID_CHANGE_RENEWAL_STATUS. On a commitment plan the renewal info says the commitment
    /// no longer renews, and renewal stops only after the last committed payment.
    public func setAutoRenewAndNotify(originalTransactionId otid: String, _ on: Bool, at date: Date = Date()) async throws {
        await ledger.setAutoRenew(originalTransactionId: otid, on)
        let latest = try await latest(otid)
        await notifications.send(
            try await notification("DID_CHANGE_RENEWAL_STATUS", subtype: on ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED", about: latest, signedAt: date))
    }

    /// A purchase made outside the App Store (EU alternative payments): an
    /// EXTERNAL_PURCHASE_TOKEN notification (CREATED, ACTIVE_TOKEN_REMINDER, or UNREPORTED:
    /// a token never reported to Apple), whose app is named inside the token, not in `data`.
    /// A sandbox token's id starts with `SANDBOX`.
    @discardableResult
    public func externalPurchaseTokenAndNotify(
        subtype: String = "CREATED", tokenType: String = "ACQUISITION", sandbox: Bool = false, at date: Date = Date()
    ) async throws -> String {
        let id = (sandbox ? "SANDBOX_" : "") + UUID().uuidString.lowercased()
        let token = NotificationPayload.ExternalPurchaseToken(
            externalPurchaseId: id, tokenCreationDate: date.milliseconds, bundleId: bundleId, tokenType: tokenType,
            tokenExpirationDate: date.addingTimeInterval(30 * 86_400).milliseconds)
        await notifications.send(
            try notification(
                NotificationPayload(
                    notificationType: "EXTERNAL_PURCHASE_TOKEN", subtype: subtype, notificationUUID: UUID().uuidString.lowercased(),
                    signedDate: date.milliseconds, externalPurchaseToken: token),
                sandbox: sandbox, about: []))
        return id
    }

    private func latest(_ otid: String) async throws -> SimulatedPurchase {
        guard let latest = await ledger.chain(originalTransactionId: otid).last, latest.kind == .autoRenewable else {
            throw SimulatorError.unknown("auto-renewable subscription \(otid)")
        }
        return latest
    }

    private func notify(_ type: String, transactionId: String, at date: Date = Date()) async throws {
        guard let purchase = await ledger.purchase(transactionId: transactionId) else { throw SimulatorError.unknown("transaction \(transactionId)") }
        await notifications.send(try await notification(type, about: purchase, signedAt: date))
    }
}
