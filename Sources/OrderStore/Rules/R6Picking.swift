/// R6: which transaction a receipt pays for when the client sent no transaction id [S3].
///
/// Apple returns transactions in `in_app` and `latest_receipt_info`, in no promised
/// order, sometimes including other users' transactions. Merge both, drop duplicates
/// (same product id + original transaction id + transaction id), group by product type
/// and take the latest `purchase_date_ms` of each group.
public enum TransactionPicking {
    /// `in_app` and `latest_receipt_info` merged and de-duplicated, latest purchase first.
    public static func merged(_ content: AppleReceiptContent) -> [AppleTransaction] {
        var seen = Set<DedupKey>()
        var result: [AppleTransaction] = []
        for transaction in content.inApp + content.latestReceiptInfo {
            let key = DedupKey(product: transaction.productId, original: transaction.originalTransactionId, id: transaction.transactionId)
            if seen.insert(key).inserted { result.append(transaction) }
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
    /// latest of the order product's type. R5 then checks that it really matches.
    public static func pick(for productType: ProductType, claimedTransactionId: String?, in content: AppleReceiptContent, types: [String: ProductType]) -> AppleTransaction? {
        if let claimed = claimedTransactionId {
            return merged(content).first { $0.transactionId == claimed }
        }
        return latestPerType(content, types: types)[productType]
    }

    private struct DedupKey: Hashable {
        var product: String
        var original: String
        var id: String
    }
}
