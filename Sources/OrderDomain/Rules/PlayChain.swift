/// A Google Play subscription is the chain of tokens a plan change links: its orders (the
/// rules' transactions) share the first order of the chain's first token as their original,
/// as an Apple subscription's periods share their original transaction id, so R7 and R8 see
/// one subscription across plan changes.
public enum PlayChain {
    /// The first order of a Play order id's purchase: renewals append `..0`, `..1`.
    public static func firstOrder(of orderId: String) -> String {
        guard let range = orderId.range(of: "..") else { return orderId }
        return String(orderId[..<range.lowerBound])
    }

    /// `content` with every transaction paid under `token`, and its renewal info, given
    /// `original` (the chain's) as their original.
    package static func rooted(_ content: AppleReceiptContent, token: String, at original: String) -> AppleReceiptContent {
        var replaced: Set<String> = []
        func rooting(_ t: AppleTransaction) -> AppleTransaction {
            guard t.purchaseToken == token, t.originalTransactionId != original else { return t }
            replaced.insert(t.originalTransactionId)
            var rooted = t
            rooted.originalTransactionId = original
            return rooted
        }
        var result = content
        result.inApp = content.inApp.map(rooting)
        result.latestReceiptInfo = content.latestReceiptInfo.map(rooting)
        result.pendingRenewals = content.pendingRenewals.map { renewal in
            var rooted = renewal
            if replaced.contains(renewal.originalTransactionId) { rooted.originalTransactionId = original }
            return rooted
        }
        return result
    }
}
