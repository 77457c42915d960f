import OrderDomain
import OrderStore
import Presentation
import Terminal

/// `a` / `:account ID`: one game account: its orders, what it was granted, the
/// subscriptions it owns, flags such as replays (R7) and support's notes. Enter lists its
/// orders as a table; `n` writes a note.
public final class AccountScreen: ConsoleScreen {
    let accountId: String
    private var detail: AccountDetail?
    private var text = ScrollingText()
    /// R2: a sandbox answer in a production store is marked SBX.
    private var isProduction = true

    public init(accountId: String) { self.accountId = accountId }

    public var title: String { "Account \(accountId)" }

    public func commands(_ session: ConsoleSession) -> [KeyCommand] {
        [
            KeyCommand(KeyBinding(.enter, action: "its orders")) { .push(OrdersScreen.ofAccount(self.accountId)) },
            KeyCommand(KeyBinding(.character("o"), action: "its subscriptions"), available: detail?.subscriptions.isEmpty == false) {
                self.subscriptionsScreen()
            },
            NoteActions.command(on: .account(accountId), session: session),
        ] + KeyCommand.reading
    }

    /// `o`: the one subscription the account owns, or the list of them.
    private func subscriptionsScreen() -> ScreenAction {
        let owned = detail?.subscriptions ?? []
        if owned.count == 1 { return .push(SubscriptionScreen(originalTransactionId: owned[0].originalTransactionId)) }
        let accountId = accountId
        return .push(
            ListScreen(
                SubscriptionListings.owned(by: accountId), fetch: { try await $0.store.accounts.detail(accountId).subscriptions },
                open: { SubscriptionScreen(originalTransactionId: $0.originalTransactionId) }))
    }

    public func load(_ session: ConsoleSession) async throws {
        text.changed()
        isProduction = session.store.settings.isProduction
        detail = try await session.store.accounts.detail(accountId)
    }

    /// The lines of the screen, each with its style: what `iapdesk account show` prints.
    func lines(theme: Theme) -> [(String, Style)] {
        guard let detail else { return [] }
        return DetailText.lines(AccountPresentation.sections(detail, storeIsProduction: isProduction), theme: theme)
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.render(into: &screen, area: area, theme: theme) { lines(theme: theme) }
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        _ = text.handle(key, area: area, theme: session.theme) { lines(theme: session.theme) }
        return .none
    }
}
