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
    private var isProduction = true
    private var text = ScrollingText()

    public init(originalTransactionId: String) { self.originalTransactionId = originalTransactionId }

    public var title: String { "Subscription \(originalTransactionId)" }

    public func bindings(_ session: ConsoleSession) -> [KeyBinding] {
        var keys = [KeyBinding(.enter, action: "its orders"), KeyBinding(.character("x"), action: "x-ray"), KeyBinding(.escape, action: "back")]
        if !session.readOnly, detail?.subscription != nil { keys.append(KeyBinding(.character("t"), action: "transfer")) }
        keys += [KeyBinding(.up, .down, action: "scroll"), KeyBinding(.character("?"), action: "help")]
        if !session.readOnly, detail?.subscription?.ownerAccount != nil { keys.append(SubscriptionActions.rebindBinding) }
        // Rare and admin-only: last, where a narrow footer drops it before the rest.
        if session.actor.role == .admin, detail?.subscription != nil { keys.append(SubscriptionActions.extendBinding) }
        return keys
    }

    public func load(_ session: ConsoleSession) async throws {
        detail = try await session.store.subscription(originalTransactionId)
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
        text.draw(ScrollingText.wrap(lines(theme: theme), area: area), into: &screen, area: area)
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        if key == .enter { return .push(OrdersScreen.ofSubscription(originalTransactionId)) }
        if key == .character("x") { return .push(SectionsScreen.xray(originalTransactionId)) }
        if key == .character("t"), !session.readOnly, let s = detail?.subscription {
            let (store, actor, otid) = (session.store, session.actor, originalTransactionId)
            return .dialog(
                Dialog(
                    title: "Transfer subscription \(otid)",
                    lines: [s.ownerAccount.map { "Owner now: \($0) (decided by \(s.decidedBy))." } ?? "No owner yet: no order holds it."]
                        // The account a dispute is usually settled towards: the one that submitted the renewal.
                        + (detail?.ownership.last(where: { $0.submittedBy != s.ownerAccount }).map {
                            ["Submitted a renewal: \($0.submittedBy) (order \($0.orderId ?? "-"))."]
                        } ?? [])
                        + ["The new owner gets the subscription's renewals from now on; the change is an ownership event and an audit entry with your reason."],
                    inputs: ["To account"], confirm: "transfer"
                ) { values in
                    try await store.transferOwnership(originalTransactionId: otid, to: values[0], by: actor, reason: values[1])
                    return "subscription \(otid) now belongs to \(values[0])"
                })
        }
        if SubscriptionActions.rebindBinding.keys.contains(key), !session.readOnly, let s = detail?.subscription, s.ownerAccount != nil {
            return SubscriptionActions.rebind(s, session: session)
        }
        if SubscriptionActions.extendBinding.keys.contains(key), session.actor.role == .admin, let detail, let s = detail.subscription {
            return SubscriptionActions.extend(s, detail: detail, session: session)
        }
        _ = text.handle(key, area: area, count: ScrollingText.wrap(lines(theme: session.theme), area: area).count)
        return .none
    }
}
