import Foundation
import OrderDomain
import SQLKit

/// The subscription's purchase told to carry its owner's token from now on (Set App Account
/// Token), and what Apple said.
public struct AccountTokenRebinding: Sendable, Equatable {
    public var originalTransactionId: String
    public var ownerAccount: String
    /// The owner's order whose id is the new token.
    public var orderId: String
    /// Apple's refusal in words; nil when Apple took the token.
    public var appleError: String?
}

extension Subscriptions {
    /// After a transfer, tells Apple to put the new owner's token on the subscription's
    /// purchase, so its later notifications and transactions name the owner R8 settled on.
    /// iapdesk's apps send the order id as `appAccountToken`; the token is the owner's
    /// newest order on the subscription, which must be a UUID as Apple requires. Support and
    /// admins; audited as `subscription.rebind_token` whether Apple took it or not.
    ///
    /// - Throws: `StoreError/notFound(kind:id:)` for an unknown subscription;
    ///   `StoreError/invalid(_:)` when it has no owner, the owner has no order on it, or that
    ///   order's id is not a UUID (nothing is sent then).
    public func rebind(
        originalTransactionId otid: String, by actor: Operator, reason: String, at now: Millis = .now(),
        send: @Sendable (_ token: UUID, _ originalTransactionId: String, AppleEnvironment) async -> String?
    ) async throws -> AccountTokenRebinding {
        try store.requireOperator(actor, may: .rebindToken, reason: reason)
        let (owner, order) = try await store.read { sql -> (String, Order?) in
            guard let subscription = try await sql.row("SELECT owner_account FROM subscriptions WHERE original_transaction_id = \(bind: otid)") else {
                throw StoreError.notFound(kind: .subscription, id: otid)
            }
            guard let owner = try subscription.optionalString("owner_account") else {
                throw StoreError.invalid(.subscriptionWithoutOwner(originalTransactionId: otid))
            }
            let order = try await sql.row(
                """
                SELECT \(unsafeRaw: Order.Column.list) FROM orders WHERE original_transaction_id = \(bind: otid) AND account_id = \(bind: owner)
                ORDER BY created_at DESC, order_id DESC LIMIT 1
                """
            ).map(Order.init(row:))
            return (owner, order)
        }
        guard let order else {
            throw StoreError.invalid(.ownerWithoutOrder(owner: owner, originalTransactionId: otid))
        }
        guard let token = UUID(uuidString: order.orderId) else {
            throw StoreError.invalid(.orderIdNotUUID(order.orderId))
        }
        let environment = order.environment ?? (store.settings.isProduction ? .production : .sandbox)
        let refusal = await store.asApp(order.app ?? store.settings.bundleId) { await send(token, otid, environment) }
        try await store.write(as: actor, now: now) { tx in
            tx.audit(
                refusal == nil ? .subscriptionRebindToken : .subscriptionRebindTokenRefused, target: .originalTransaction(otid), reason: reason,
                .tokenRebound(orderId: order.orderId, owner: owner, appleSaid: refusal))
        }
        return AccountTokenRebinding(originalTransactionId: otid, ownerAccount: owner, orderId: order.orderId, appleError: refusal)
    }
}
