/// One R5 check on a valid receipt, with what it saw, for the console's ✓/✗ list.
public struct ReceiptCheck: Sendable, Equatable, Codable {
    public enum Name: String, Sendable, Codable, CaseIterable {
        case bundleId = "bundle id"
        case transactionPresent = "transaction present"
        case productId = "product id"
        case quantity
        case purchaseAfterOrder = "purchased after order"
        case notCancelled = "not cancelled"
        case accountToken = "account token"
    }
    public var name: Name
    public var passed: Bool
    public var detail: String

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(name: Name, passed: Bool, detail: String) {
        self.name = name
        self.passed = passed
        self.detail = detail
    }
}

/// R5: a receipt with status 0 is legitimate only when every check passes [S0 §4, S4].
public enum ReceiptChecks {
    /// Clock skew allowed between our order clock and Apple's purchase date.
    public static let defaultClockSkew: Millis = .minutes(5)

    /// Every check of ``ReceiptCheck/Name`` on `picked` for `order`, in that order (the
    /// purchase date against the order's creation within `clockSkew`); each says what it saw.
    /// `answerReportsConsumableRefunds`: whether the answer can say a consumable was
    /// refunded (a signed transaction's revocation, Google's void), unlike a receipt (R9).
    public static func run(
        order: Order, productType: ProductType, expectedBundleId: String, content: AppleReceiptContent,
        picked: AppleTransaction?, clockSkew: Millis = defaultClockSkew, answerReportsConsumableRefunds: Bool = false
    ) -> [ReceiptCheck] {
        var checks: [ReceiptCheck] = [
            ReceiptCheck(
                name: .bundleId, passed: content.bundleId == expectedBundleId,
                detail: content.bundleId == expectedBundleId ? content.bundleId : "\(content.bundleId) ≠ \(expectedBundleId) (re-signed app?)")
        ]
        guard let transaction = picked else {
            checks.append(ReceiptCheck(name: .transactionPresent, passed: false, detail: "no transaction for this order in the receipt"))
            return checks
        }
        checks.append(ReceiptCheck(name: .transactionPresent, passed: true, detail: transaction.transactionId))
        checks.append(
            ReceiptCheck(
                name: .productId, passed: transaction.productId == order.productId,
                detail: transaction.productId == order.productId ? transaction.productId : "\(transaction.productId) ≠ \(order.productId)"))
        checks.append(
            ReceiptCheck(
                name: .quantity, passed: transaction.quantity == order.quantity,
                detail: transaction.quantity == order.quantity ? "\(transaction.quantity)" : "\(transaction.quantity) ≠ \(order.quantity)"))
        checks.append(purchaseDateCheck(transaction, order: order, productType: productType, clockSkew: clockSkew))
        let cancelled = RefundRule.cancellation(of: transaction, type: productType, fromJWS: answerReportsConsumableRefunds) != nil
        checks.append(
            ReceiptCheck(
                name: .notCancelled, passed: !cancelled,
                detail: cancelled ? "cancelled \(transaction.cancellationDate?.iso8601 ?? "")" : "not cancelled"))
        // A receipt can carry other users' transactions [S3]; when the app sent our order
        // id as its account token, a different token means it pays for another order.
        // Renewals carry the token of the subscription's first purchase, so for them the
        // token says nothing about this order: who gets a renewal is R8's question.
        if let token = transaction.appAccountToken, !token.isEmpty, transaction.transactionId == transaction.originalTransactionId {
            checks.append(
                ReceiptCheck(
                    name: .accountToken, passed: token == order.orderId,
                    detail: token == order.orderId ? token : "token \(token) belongs to another order"))
        }
        return checks
    }

    /// A first purchase can't predate the order that paid for it. A renewal always does:
    /// Apple renews before any account places the order that submits it, so its owner is
    /// R8's question, not this check's.
    package static func purchaseDateCheck(_ transaction: AppleTransaction, order: Order, productType: ProductType, clockSkew: Millis) -> ReceiptCheck {
        if productType == .autoRenewable, transaction.isRenewal {
            return ReceiptCheck(
                name: .purchaseAfterOrder, passed: true,
                detail: "renewal bought \(transaction.purchaseDate.iso8601): its owner is decided by R8")
        }
        let earliest = order.createdAt - clockSkew
        let passed = transaction.purchaseDate >= earliest
        return ReceiptCheck(
            name: .purchaseAfterOrder, passed: passed,
            detail: passed ? transaction.purchaseDate.iso8601 : "purchased \(transaction.purchaseDate.iso8601), order created \(order.createdAt.iso8601)")
    }

    /// The first failing check, which becomes the rejection reason.
    public static func firstFailure(_ checks: [ReceiptCheck]) -> ReceiptCheck? {
        checks.first { !$0.passed }
    }
}
