import OrderDomain

/// One game account as support reads it: the console's account screen and `iapdesk account
/// show` print these sections. Support's notes first, the other game accounts its Apple
/// Account bought with, flags such as replays (R7), then its orders, what it was granted and
/// the subscriptions it owns.
public enum AccountPresentation {
    public static func sections(_ detail: AccountDetail, storeIsProduction: Bool) -> [DetailSection] {
        var sections: [DetailSection] = NotePresentation.section(detail.notes).map { [$0] } ?? []
        if !detail.sameAppleAccount.isEmpty {
            sections.append(
                DetailSection(
                    "Same Apple Account as (by appTransactionId)",
                    detail.sameAppleAccount.map { DetailLine("\($0.accountId)  \($0.refunds == 0 ? "no refund" : "\($0.refunds) refunded")") }))
        }
        if !detail.flags.isEmpty {
            sections.append(
                DetailSection(
                    "Flags",
                    detail.flags.map {
                        DetailLine(at: $0.at, "\($0.flag.words)  order \($0.orderId ?? "-"): \($0.why.map(ReasonWords.sentence) ?? $0.detail)", tone: .alert)
                    }))
        }
        // A player who moved from iPhone to Android (or back) has orders in both stores:
        // each then says its store.
        let bothStores = Set(detail.orders.map(\.marketplace)).count > 1
        sections.append(
            DetailSection(
                "Orders (\(detail.orders.count))" + (bothStores ? ", App Store and Google Play" : ""),
                detail.orders.map {
                    DetailLine(
                        at: $0.createdAt,
                        "\(padded($0.orderId, 14))  \(padded($0.productId, 11))  " + (bothStores ? "\(padded($0.marketplace.shortName, 5))  " : "")
                            + OrderListings.stateText($0, storeIsProduction: storeIsProduction),
                        tone: .state($0.state))
                }))
        sections.append(
            DetailSection(
                "Grants (\(detail.grants.count))",
                detail.grants.map { grant in
                    DetailLine(
                        at: grant.grantedAt,
                        "\(grant.orderId)  \(grant.kind.rawValue) by \(grant.operatorName)" + (grant.revokedAt.map { "  REVOKED \(TimeText.full($0))" } ?? ""),
                        tone: grant.revokedAt == nil ? .plain : .failed)
                }))
        sections.append(
            DetailSection(
                "Subscriptions owned (\(detail.subscriptions.count))",
                detail.subscriptions.map { DetailLine("\($0.originalTransactionId)  \($0.productId)  \($0.status)  auto-renew \($0.autoRenew ? "on" : "off")") }
            ))
        return sections
    }

    /// Ids in a column: padded to `width` characters, never cut (a longer id pushes the line).
    static func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
}
