import OrderDomain
import OrderStore
import Presentation
import Terminal

/// Attaching a purchase no order claims to the order it paid for: from `:orphans`, and
/// from Apple's invoice, where the order waiting for it is filled in.
enum OrphanActions {
    static let binding = KeyBinding(.character("A"), action: "attach to order")

    static func attach(_ orphan: StoredTransaction, to waiting: Order?, session: ConsoleSession) -> ScreenAction {
        if let token = orphan.transaction.purchaseToken {
            // Google's purchase: asked of Google again, and acknowledged there once delivered.
            return PlayAttachActions.attach(
                token: token, package: nil, title: "Attach Google's order \(orphan.transaction.transactionId)",
                paid: "\(orphan.transaction.productId) paid at Google \(TimeText.full(orphan.transaction.purchaseDate))",
                prefilledOrder: waiting?.orderId ?? "", session: session)
        }
        let (store, actor, tid) = (session.store, session.actor, orphan.transaction.transactionId)
        let whose = waiting.map { "Order \($0.orderId) (\($0.accountId), \($0.state.rawValue)) was waiting for it." } ?? "Name the order it paid for."
        let orderField = DialogField("Order id", prefilled: waiting?.orderId ?? "")
        return .dialog(
            Dialog(
                title: "Attach transaction \(tid)",
                lines: [
                    "\(orphan.transaction.productId) bought \(TimeText.full(orphan.transaction.purchaseDate)); no order claims it.",
                    "\(whose) The rules check it like a receipt (R5, R7), then it is delivered once.",
                ],
                fields: [orderField, .reason], confirm: "attach"
            ) { values in
                guard let order = try await store.orders.find(values[orderField]) else { throw StoreError.notFound(kind: .order, id: values[orderField]) }
                let attached = try await store.orders.attach(
                    transactionId: tid, to: order.orderId, expectedVersion: order.version, by: actor, reason: values[.reason])
                return "\(tid) attached to \(attached.orderId): now \(attached.state.rawValue)"
            })
    }
}
