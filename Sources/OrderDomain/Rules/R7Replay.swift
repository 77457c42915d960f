/// R7: one Apple purchase delivers once [S4 刷单].
///
/// Each key is inserted into a table with a unique constraint when an order claims a
/// transaction; a second order claiming any of the same keys is a replay. Restores mint
/// new transaction ids for the same purchase, so non-consumables are also keyed by the
/// original transaction id, and subscription periods by their web order line item id.
public enum ReplayKeys {
    /// The keys `transaction` claims: its transaction id always; the original transaction
    /// id for a non-consumable; the web order line item id for a subscription period.
    public static func keys(for transaction: AppleTransaction, type: ProductType) -> [String] {
        var keys = ["tid:\(transaction.transactionId)"]
        switch type {
        case .nonConsumable:
            keys.append("otid:\(transaction.originalTransactionId)")
        case .autoRenewable, .nonRenewing:
            if let line = transaction.webOrderLineItemId, !line.isEmpty, line != "0" {
                keys.append("wol:\(line)")
            }
        case .consumable:
            break
        }
        return keys
    }
}

extension ReplayKeys {
    /// Products whose restore by the owning account repeats an entitlement rather than
    /// paying out again: a second delivery of them gives nothing twice.
    public static func restorable(_ type: ProductType) -> Bool {
        type == .nonConsumable || type == .autoRenewable
    }
}
