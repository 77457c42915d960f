import OrderDomain

/// What an R5 check saw, in words: the ✓/✗ lines of the order and receipt pages and a
/// rejection's "check failed: …".
public enum CheckWords {
    public static func saw(_ check: ReceiptCheck) -> String {
        switch check.evidence {
        case .saw(let value): value
        case .differs(let found, let expected) where check.name == .bundleId: "\(found) ≠ \(expected) (re-signed app?)"
        case .differs(let found, let expected): "\(found) ≠ \(expected)"
        case .noTransaction: "no transaction for this order in the receipt"
        case .notCancelled: "not cancelled"
        case .cancelled(let at): "cancelled \(at?.iso8601 ?? "")"
        case .anotherOrdersToken(let token): "token \(token) belongs to another order"
        case .renewal(let boughtAt): "renewal bought \(boughtAt.iso8601): its owner is decided by R8"
        case .purchased(let at): at.iso8601
        case .purchasedBeforeOrder(let purchasedAt, let orderCreatedAt): "purchased \(purchasedAt.iso8601), order created \(orderCreatedAt.iso8601)"
        case .words(let words): words
        }
    }
}
