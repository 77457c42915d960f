/// Which kind of id an operator's word names: any (a bare word), or the one a prefix such as
/// `tid:` or `otid:` says. A lookup and a prefix search look only in that kind's column.
public enum IdKind: String, Sendable, CaseIterable {
    case any, order, transaction, originalTransaction, account
    /// Apple's `appTransactionId`: one Apple Account in this app. Found exactly, never by prefix.
    case appTransaction
    /// Google Play's purchase token: the orders that submitted it or claim a purchase paid
    /// under it. Found exactly.
    case purchaseToken
    /// The `obfuscatedExternalAccountId` a game set on its Google Play purchases: the orders
    /// of those purchases. Found exactly.
    case obfuscatedAccount

    /// The kinds a bare word is looked up as first: the ids support is handed every day
    /// (Google's `GPA.…` order ids are transaction ids).
    package static let everyday: [IdKind] = [.order, .transaction, .originalTransaction, .account]
    /// Asked when the everyday kinds found nothing: a purchase token, which a game server's
    /// log gives for an Android player's purchase. A round of its own, so finding one does
    /// not wait for the rarer kinds' probes.
    package static let token: [IdKind] = [.purchaseToken]
    /// The kinds asked only when the rounds before found nothing: ids few tickets quote,
    /// each a probe that would cost every lookup its time.
    package static let rare: [IdKind] = [.appTransaction, .obfuscatedAccount]

    /// The kinds a lookup of this kind probes, in rounds: a later round is asked only when
    /// the ones before it found nothing.
    package var rounds: [[IdKind]] { self == .any ? [Self.everyday, Self.token, Self.rare] : [[self]] }

    /// The orders columns a prefix search of this kind reads, most specific first.
    package var prefixColumns: [String] {
        let all: [(IdKind, String)] = [
            (.order, "order_id"), (.transaction, "transaction_id"),
            (.originalTransaction, "original_transaction_id"), (.account, "account_id"),
        ]
        return all.filter { self == .any || self == $0.0 }.map(\.1)
    }
}
