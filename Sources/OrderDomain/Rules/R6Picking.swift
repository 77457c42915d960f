/// R6: which transaction a receipt pays for when the client sent no transaction id [S3].
///
/// Apple returns transactions in `in_app` and `latest_receipt_info`, in no promised
/// order, sometimes including other users' transactions. Merge both, drop duplicates
/// (same product id + original transaction id + transaction id), group by product type
/// and take the latest `purchase_date_ms` of each group.
public enum TransactionPicking {
    /// `in_app` and `latest_receipt_info` merged and de-duplicated, latest purchase first.
    public static func merged(_ content: AppleReceiptContent) -> [AppleTransaction] {
        var index: [DedupKey: Int] = [:]
        var result: [AppleTransaction] = []
        for transaction in content.inApp + content.latestReceiptInfo {
            let key = DedupKey(product: transaction.productId, original: transaction.originalTransactionId, id: transaction.transactionId)
            guard let at = index[key] else {
                index[key] = result.count
                result.append(transaction)
                continue
            }
            // The same transaction in both arrays: a cancellation or expiry either one shows counts (R9).
            result[at].cancellationDate = result[at].cancellationDate ?? transaction.cancellationDate
            result[at].cancellationReason = result[at].cancellationReason ?? transaction.cancellationReason
            result[at].expiresDate = [result[at].expiresDate, transaction.expiresDate].compactMap { $0 }.max()
            result[at].isUpgraded = result[at].isUpgraded || transaction.isUpgraded
        }
        // Sorting here is what makes array order irrelevant; ties break on the id so the
        // result never depends on the order Apple sent.
        return result.sorted { ($0.purchaseDate, $0.transactionId) > ($1.purchaseDate, $1.transactionId) }
    }

    /// The latest transaction of each product type; products we don't sell group as nil.
    public static func latestPerType(_ content: AppleReceiptContent, types: [String: ProductType]) -> [ProductType?: AppleTransaction] {
        var latest: [ProductType?: AppleTransaction] = [:]
        for transaction in merged(content) {  // latest first, so the first seen wins
            let type = types[transaction.productId]
            if latest[type] == nil { latest[type] = transaction }
        }
        return latest
    }

    /// The transaction an order pays with: the one the client named, if any; otherwise the
    /// latest purchase of the order's own product that no other order holds, and failing
    /// that the latest of the product's type (so R5 or R7 can say what is wrong with it).
    /// `heldByAnother` says whether another order already claimed a transaction.
    public static func pick(
        for order: Order, productType: ProductType, claimedTransactionId: String?, in content: AppleReceiptContent,
        types: [String: ProductType], heldByAnother: (AppleTransaction) -> Bool = { _ in false }
    ) -> AppleTransaction? {
        if let claimed = claimedTransactionId {
            return merged(content).first { $0.transactionId == claimed }
        }
        if let own = merged(content).first(where: { $0.productId == order.productId && !heldByAnother($0) }) {
            return own
        }
        return latestPerType(content, types: types)[productType]
    }

    private struct DedupKey: Hashable {
        var product: String
        var original: String
        var id: String
    }
}
