/// A Google Play subscription is the chain of tokens a plan change links: its orders (the
/// rules' transactions) share the chain's first token as their original, as an Apple
/// subscription's periods share their original transaction id, so R7 and R8 see one
/// subscription across plan changes.
enum PlayChain {
    /// `content` with every transaction paid under `token` given `root` as its original.
    static func rooted(_ content: AppleReceiptContent, token: String, at root: String) -> AppleReceiptContent {
        func rooting(_ t: AppleTransaction) -> AppleTransaction {
            guard t.purchaseToken == token, t.originalTransactionId != root else { return t }
            var rooted = t
            rooted.originalTransactionId = root
            return rooted
        }
        var result = content
        result.inApp = content.inApp.map(rooting)
        result.latestReceiptInfo = content.latestReceiptInfo.map(rooting)
        result.pendingRenewals = content.pendingRenewals.map { renewal in
            var rooted = renewal
            if renewal.originalTransactionId == token { rooted.originalTransactionId = root }
            return rooted
        }
        return result
    }
}
