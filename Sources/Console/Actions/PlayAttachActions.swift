import OrderDomain
import OrderStore
import Presentation
import Terminal

/// `A` where a Google order id (a player's receipt email) led to a purchase no order
/// submitted: attach it to the order it paid for. Google is asked again and its answer goes
/// through the rules as the game's own submission would (R5, R7), so it is delivered once or
/// refused with the rules' reason; audited with the operator's reason.
enum PlayAttachActions {
    static let binding = KeyBinding(.character("A"), action: "attach Google's purchase")

    static func command(for finding: GoogleOrderFinding?, googleOrderId: String, session: ConsoleSession) -> KeyCommand? {
        guard case .unclaimed(let token, let productId, let state, let package)? = finding else { return nil }
        return KeyCommand(binding, who: .support, available: !session.readOnly) {
            attach(
                token: token, package: package, title: "Attach Google's order \(googleOrderId)",
                paid: "\(productId ?? "A product") paid at Google (\(state)) in \(package)", session: session)
        }
    }

    /// `package` nil: the one the store keeps for the token (a purchase Google told of).
    static func attach(token: String, package: String?, title: String, paid: String, prefilledOrder: String = "", session: ConsoleSession)
        -> ScreenAction
    {
        guard let verifier = session.verifier else {
            return .flash(GoogleOrderWords.needsServiceAccount("attaching Google's purchases"), isError: true)
        }
        let (store, actor) = (session.store, session.actor)
        let orderField = DialogField("Order id", prefilled: prefilledOrder)
        return .dialog(
            Dialog(
                title: title,
                lines: [
                    "\(paid); no order submitted its purchase token.",
                    "Name the order it paid for. Google is asked again and the rules check it like the game's own submission (R5, R7): it is delivered once.",
                ],
                fields: [orderField, .reason], confirm: "attach"
            ) { values in
                let known = try await store.googlePlay.purchase(token: token)?.facts.packageName
                guard let package = package ?? known else { throw StoreError.notFound(kind: .purchaseToken, id: String(token.prefix(24)) + "…") }
                let outcome = try await store.googlePlay.attach(
                    purchaseToken: token, package: package, to: values[orderField], by: actor, reason: values[.reason]
                ) { await verifier.verify($0, claimedTransactionId: nil) }
                return VerificationPresentation.oneLine(outcome)
            })
    }
}
