import Foundation

/// What happens at Apple and is told to the developer's server: each change to the ledger
/// made through these is followed by the notification Apple sends for it (REFUND for every
/// product type, REVOKE, DID_RENEW, DID_CHANGE_RENEWAL_STATUS, EXPIRED).
extension AppStoreSimulator {
    @discardableResult
    public func renewAndNotify(originalTransactionId otid: String, period: TimeInterval = 30 * 86_400) async throws -> SimulatedPurchase {
        let renewal = try await ledger.renew(originalTransactionId: otid, period: period)
        await notifications.send(try await notification("DID_RENEW", about: renewal))
        return renewal
    }

    public func refundAndNotify(transactionId: String, reason: Int = 0) async throws {
        try await ledger.refund(transactionId: transactionId, reason: reason)
        try await notify("REFUND", transactionId: transactionId)
    }

    public func revokeAndNotify(transactionId: String) async throws {
        try await ledger.revoke(transactionId: transactionId)
        try await notify("REVOKE", transactionId: transactionId)
    }

    public func setAutoRenewAndNotify(originalTransactionId otid: String, _ on: Bool) async throws {
        await ledger.setAutoRenew(originalTransactionId: otid, on)
        guard let latest = await ledger.chain(originalTransactionId: otid).last else { throw SimulatorError.unknown("subscription \(otid)") }
        await notifications.send(try await notification("DID_CHANGE_RENEWAL_STATUS", subtype: on ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED", about: latest))
    }

    /// The subscription's last period ended without a renewal.
    public func expireAndNotify(originalTransactionId otid: String) async throws {
        guard let latest = await ledger.chain(originalTransactionId: otid).last else { throw SimulatorError.unknown("subscription \(otid)") }
        await notifications.send(try await notification("EXPIRED", subtype: latest.autoRenew ? "BILLING_RETRY" : "VOLUNTARY", about: latest))
    }

    private func notify(_ type: String, transactionId: String) async throws {
        guard let purchase = await ledger.purchase(transactionId: transactionId) else { throw SimulatorError.unknown("transaction \(transactionId)") }
        await notifications.send(try await notification(type, about: purchase))
    }
}
