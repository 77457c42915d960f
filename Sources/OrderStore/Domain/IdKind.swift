/// Which kind of id an operator's word names: any (a bare word), or the one a prefix such as
/// `tid:` or `otid:` says. A lookup and a prefix search look only in that kind's column.
public enum IdKind: String, Sendable, CaseIterable {
    case any, order, transaction, originalTransaction, account
    /// Apple's `appTransactionId`: one Apple Account in this app. Found exactly, never by prefix.
    case appTransaction

    /// Whether a search for this kind looks at ids of `kind`.
    func includes(_ kind: IdKind) -> Bool { self == .any || self == kind }

    /// The orders columns a prefix search of this kind reads, most specific first.
    var prefixColumns: [String] {
        let all: [(IdKind, String)] = [
            (.order, "order_id"), (.transaction, "transaction_id"),
            (.originalTransaction, "original_transaction_id"), (.account, "account_id"),
        ]
        return all.filter { includes($0.0) }.map(\.1)
    }
}
