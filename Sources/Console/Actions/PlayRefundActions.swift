import OrderDomain
import OrderStore
import Presentation
import Terminal

/// `$` on a Google Play order: ask Google to refund it (`orders.refund`), taking access back
/// or not, audited with the reason; Google's refusal is shown as Google said it.
enum PlayRefundActions {
    static let binding = KeyBinding(.character("$"), action: "refund at Google")

    static func command(for order: Order, session: ConsoleSession) -> KeyCommand? {
        guard order.marketplace == .googlePlay else { return nil }
        return KeyCommand(binding, who: .support, available: order.state == .delivered && !session.readOnly) { refund(order, session: session) }
    }

    static func refund(_ order: Order, session: ConsoleSession) -> ScreenAction {
        guard let google = session.playActions else {
            return .flash(GoogleOrderWords.needsServiceAccount("refunding"), isError: true)
        }
        let (store, actor) = (session.store, session.actor)
        let revokeField = DialogField("Take access back (yes/no)", prefilled: "yes")
        return .dialog(
            Dialog(
                title: "Refund \(order.orderId) at Google",
                lines: [
                    "Google refunds \(order.transactionId ?? "the order") (\(order.productId), account \(order.accountId)) to the player.",
                    "Taking access back: Google voids the purchase; its notice revokes it here and tells the game (R9).",
                ],
                fields: [revokeField, .reason], confirm: "refund"
            ) { values in
                let revoke = values[revokeField].lowercased().hasPrefix("y")
                if let refusal = try await store.googlePlay.refund(
                    orderId: order.orderId, revoke: revoke, by: actor, reason: values[.reason],
                    tell: {
                        await google.refundRefusal(package: $0, orderId: $1, revoke: $2)
                    })
                {
                    throw GoogleRefusal(description: "Google refused: \(refusal)")
                }
                return PlayRefundWords.requested(order.orderId, googleOrderId: order.transactionId, revoke: revoke)
            })
    }
}
