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

    /// What a check saw, as facts; Presentation says them.
    public enum Evidence: Sendable, Equatable, Codable {
        /// The value it checked, as expected.
        case saw(String)
        /// The value it found where another was expected.
        case differs(found: String, expected: String)
        /// The receipt holds no transaction for the order.
        case noTransaction
        case notCancelled
        case cancelled(at: Millis?)
        /// The account token names another order.
        case anotherOrdersToken(String)
        /// A renewal, bought before any order submits it: R8 decides its owner.
        case renewal(boughtAt: Millis)
        case purchased(at: Millis)
        case purchasedBeforeOrder(purchasedAt: Millis, orderCreatedAt: Millis)
        /// What a verdict kept before evidence was typed said, in words.
        case words(String)
    }

    public var name: Name
    public var passed: Bool
    public var evidence: Evidence

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(name: Name, passed: Bool, evidence: Evidence) {
        self.name = name
        self.passed = passed
        self.evidence = evidence
    }

    private enum CodingKeys: String, CodingKey { case name, passed, evidence, detail }

    /// Verdicts kept before evidence was typed hold a `detail` in words: read as ``Evidence/words(_:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(Name.self, forKey: .name)
        passed = try container.decode(Bool.self, forKey: .passed)
        if let evidence = try container.decodeIfPresent(Evidence.self, forKey: .evidence) {
            self.evidence = evidence
        } else {
            evidence = .words(try container.decode(String.self, forKey: .detail))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(passed, forKey: .passed)
        try container.encode(evidence, forKey: .evidence)
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
                evidence: content.bundleId == expectedBundleId ? .saw(content.bundleId) : .differs(found: content.bundleId, expected: expectedBundleId))
        ]
        guard let transaction = picked else {
            checks.append(ReceiptCheck(name: .transactionPresent, passed: false, evidence: .noTransaction))
            return checks
        }
        checks.append(ReceiptCheck(name: .transactionPresent, passed: true, evidence: .saw(transaction.transactionId)))
        checks.append(
            ReceiptCheck(
                name: .productId, passed: transaction.productId == order.productId,
                evidence: transaction.productId == order.productId
                    ? .saw(transaction.productId) : .differs(found: transaction.productId, expected: order.productId)))
        checks.append(
            ReceiptCheck(
                name: .quantity, passed: transaction.quantity == order.quantity,
                evidence: transaction.quantity == order.quantity
                    ? .saw("\(transaction.quantity)") : .differs(found: "\(transaction.quantity)", expected: "\(order.quantity)")))
        checks.append(purchaseDateCheck(transaction, order: order, productType: productType, clockSkew: clockSkew))
        let cancelled = RefundRule.cancellation(of: transaction, type: productType, fromJWS: answerReportsConsumableRefunds) != nil
        checks.append(
            ReceiptCheck(
                name: .notCancelled, passed: !cancelled,
                evidence: cancelled ? .cancelled(at: transaction.cancellationDate) : .notCancelled))
        // A receipt can carry other users' transactions [S3]; when the app sent our order
        // id as its account token, a different token means it pays for another order.
        // Renewals carry the token of the subscription's first purchase, so for them the
        // token says nothing about this order: who gets a renewal is R8's question.
        if let token = transaction.appAccountToken, !token.isEmpty, transaction.transactionId == transaction.originalTransactionId {
            checks.append(
                ReceiptCheck(
                    name: .accountToken, passed: token == order.orderId,
                    evidence: token == order.orderId ? .saw(token) : .anotherOrdersToken(token)))
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
                evidence: .renewal(boughtAt: transaction.purchaseDate))
        }
        let earliest = order.createdAt - clockSkew
        let passed = transaction.purchaseDate >= earliest
        return ReceiptCheck(
            name: .purchaseAfterOrder, passed: passed,
            evidence: passed
                ? .purchased(at: transaction.purchaseDate)
                : .purchasedBeforeOrder(purchasedAt: transaction.purchaseDate, orderCreatedAt: order.createdAt))
    }

    /// The first failing check, which becomes the rejection reason.
    public static func firstFailure(_ checks: [ReceiptCheck]) -> ReceiptCheck? {
        checks.first { !$0.passed }
    }
}
