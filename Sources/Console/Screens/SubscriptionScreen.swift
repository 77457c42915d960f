import OrderDomain
import OrderStore
import Presentation
import Terminal

/// `o` / `:otid ID`: one auto-renewable subscription by original transaction id: its owner
/// and how that was decided, the chain of transactions with who submitted each, the owner
/// history with each R8 verdict and why. `t` transfers ownership, with a reason; `e`
/// extends its renewal date with Apple (admins); Enter lists the orders that claimed it.
public final class SubscriptionScreen: ConsoleScreen {
    let originalTransactionId: String
    private var detail: SubscriptionDetail?
    /// Paid at Google: its periods were paid under purchase tokens. `e` defers and `$`
    /// revokes at Google; Apple's subscriptions are extended with Apple.
    private var isGooglePlay: Bool { detail?.chain.contains { $0.transaction.purchaseToken != nil } == true }
    private var isProduction = true
    private var text = ScrollingText()

    public init(originalTransactionId: String) { self.originalTransactionId = originalTransactionId }

    public var title: String { "Subscription \(originalTransactionId)" }

    public func commands(_ session: ConsoleSession) -> [KeyCommand] {
        let otid = originalTransactionId
        let subscription = detail?.subscription
        return [
            KeyCommand(KeyBinding(.enter, action: "its orders")) { .push(OrdersScreen.ofSubscription(otid)) },
            KeyCommand(KeyBinding(.character("x"), action: "x-ray")) { .push(SectionsScreen.xray(otid)) },
            KeyCommand(KeyBinding(.escape, action: "back")),
            KeyCommand(KeyBinding(.character("t"), action: "transfer"), who: .support, available: subscription != nil) {
                subscription.map { self.transfer($0, session: session) } ?? .none
            },
            KeyCommand(KeyBinding(.up, .down, action: "scroll")), KeyCommand(KeyBinding(.character("?"), action: "help")),
            KeyCommand(SubscriptionActions.rebindBinding, who: .support, available: subscription?.ownerAccount != nil) {
                subscription.map { SubscriptionActions.rebind($0, session: session) } ?? .none
            },
            // Rare and admin-only: late, where a narrow footer drops it before the rest. A Google
            // Play subscription (its periods paid under purchase tokens) is deferred at Google.
            KeyCommand(SubscriptionActions.extendBinding, who: .admin, available: subscription != nil) {
                guard let detail = self.detail, let subscription = detail.subscription else { return .none }
                if self.isGooglePlay {
                    return SubscriptionActions.deferAtGoogle(subscription, session: session)
                }
                return SubscriptionActions.extend(subscription, detail: detail, session: session)
            },
            KeyCommand(SubscriptionActions.deferAllBinding, who: .admin, available: self.isGooglePlay && subscription != nil) {
                subscription.map { SubscriptionActions.deferAllAtGoogle($0, session: session) } ?? .none
            },
            KeyCommand(SubscriptionActions.revokeAtGoogleBinding, who: .support, available: self.isGooglePlay && subscription != nil) {
                subscription.map { SubscriptionActions.revokeAtGoogle($0, session: session) } ?? .none
            },
            // A jump the help lists; the footer keeps the actions first.
            KeyCommand(KeyBinding(.character("w"), action: "owner"), available: subscription?.ownerAccount != nil) {
                subscription?.ownerAccount.map { .push(AccountScreen(accountId: $0)) } ?? .none
            },
        ]
    }

    public func load(_ session: ConsoleSession) async throws {
        text.changed()
        detail = try await session.store.subscriptions.detail(originalTransactionId)
        isProduction = session.store.settings.isProduction
    }

    /// The lines of the screen, each with its style: what `iapdesk subscription show` prints.
    func lines(theme: Theme) -> [(String, Style)] {
        guard let detail, let sections = SubscriptionPresentation.sections(detail, storeIsProduction: isProduction) else {
            return [("No subscription has original transaction id \(originalTransactionId).", theme[.muted])]
        }
        return DetailText.lines(sections, theme: theme)
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.render(into: &screen, area: area, theme: theme) { lines(theme: theme) }
    }

    /// `t`: the subscription to the account support chose, with a reason (R8's manual word).
    private func transfer(_ s: Subscription, session: ConsoleSession) -> ScreenAction {
        let (store, actor, otid) = (session.store, session.actor, originalTransactionId)
        let toField = DialogField("To account")
        return .dialog(
            Dialog(
                title: "Transfer subscription \(otid)",
                lines: [s.ownerAccount.map { "Owner now: \($0) (decided by \(s.decidedBy.words))." } ?? "No owner yet: no order holds it."]
                    // The account a dispute is usually settled towards: the one that submitted the renewal.
                    + (self.detail?.ownership.last(where: { $0.submittedBy != s.ownerAccount }).map {
                        ["Submitted a renewal: \($0.submittedBy) (order \($0.orderId ?? "-"))."]
                    } ?? [])
                    + ["The new owner gets the subscription's renewals from now on; the change is an ownership event and an audit entry with your reason."],
                fields: [toField, .reason], confirm: "transfer"
            ) { values in
                try await store.subscriptions.transfer(originalTransactionId: otid, to: values[toField], by: actor, reason: values[.reason])
                return "subscription \(otid) now belongs to \(values[toField])"
            })
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        _ = text.handle(key, area: area, theme: session.theme) { lines(theme: session.theme) }
        return .none
    }
}
