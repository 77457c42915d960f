import OrderDomain
import OrderStore
import Presentation
import Terminal

/// "Acknowledge now": telling Google a delivered purchase was delivered, before its
/// three-day deadline refunds it. From `:acks`; audited with the operator's reason, and
/// Google's refusal shown as Google said it.
enum PlayAcknowledgeActions {
    static let binding = KeyBinding(.character("a"), action: "acknowledge now")

    static func acknowledge(_ owed: OwedAcknowledgement, session: ConsoleSession) -> ScreenAction {
        guard let google = session.playActions else {
            return .flash(GoogleOrderWords.needsServiceAccount("acknowledging"), isError: true)
        }
        let (store, actor, purchase) = (session.store, session.actor, owed.purchase)
        let left = (purchase.acknowledgeBy ?? session.clock()) - session.clock()
        return .dialog(
            Dialog(
                title: "Acknowledge \(purchase.facts.orderId ?? purchase.facts.productId) at Google",
                lines: [
                    "\(purchase.facts.productId) for order \(owed.orderId ?? "(none yet)"); Google refunds it at \(TimeText.full(purchase.acknowledgeBy))"
                        + (left > 0 ? " (\(left.ageText) left)." : " (deadline passed)."),
                    "Only a delivered purchase is acknowledged; the call is audited.",
                ],
                fields: [.reason], confirm: "acknowledge"
            ) { values in
                let token = purchase.facts.purchaseToken
                let outcome = try await store.googlePlay.acknowledge(purchaseToken: token, by: actor, reason: values[.reason]) {
                    await google.acknowledgeRefusal($0)
                }
                let words = PlayAcknowledgeWords.result(outcome, orderId: owed.orderId)
                // A refusal stays in the dialog, as Google said it: nothing was acknowledged.
                if PlayAcknowledgeWords.isFailure(outcome) { throw GoogleRefusal(description: words) }
                return words
            })
    }
}
