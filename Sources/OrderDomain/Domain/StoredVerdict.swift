import Foundation

/// What the store decided about one verification attempt, kept with it: the receipt
/// screen and `order show` print this record rather than recomputing R5–R8 themselves.
public struct StoredVerdict: Sendable, Equatable, StoredJSON {
    public var outcome: AttemptOutcome
    /// Why the order went where it went (the rejection, retry or dispute reason).
    public var why: Why?
    /// R6: the transaction the order was matched with.
    public var pickedTransactionId: String?
    /// R5, in the order they ran.
    public var checks: [ReceiptCheck]
    public var ownershipVerdict: OwnershipVerdict?
    /// R8's decision; nil in verdicts kept before decisions were (see ``ownershipWords``).
    public var ownership: OwnershipRule.Decision?
    /// R8's decision in the words a verdict kept before decisions were typed.
    public var ownershipWords: String?
    /// The order's state once the rules were done.
    public var orderState: OrderState
    /// R2: a sandbox purchase in a production store.
    public var sandboxInProduction: Bool

    /// Nil for attempts stored before verdicts were kept.
    ///
    /// - Throws: ``StoreError/corrupt(_:)`` naming the attempt when its record does not read:
    ///   the receipt screen must not say "no verdict kept" about one that was.
    package init?(json: String?, attempt: Int64) throws {
        guard let json else { return nil }
        self = try StoredVerdict(json: json, of: "verification attempt \(attempt)")
    }

    public init(
        outcome: AttemptOutcome, why: Why?, pickedTransactionId: String?, checks: [ReceiptCheck],
        ownership: OwnershipRule.Decision?, orderState: OrderState, sandboxInProduction: Bool
    ) {
        self.outcome = outcome
        self.why = why
        self.pickedTransactionId = pickedTransactionId
        self.checks = checks
        self.ownershipVerdict = ownership?.verdict
        self.ownership = ownership
        self.ownershipWords = nil
        self.orderState = orderState
        self.sandboxInProduction = sandboxInProduction
    }

    private enum CodingKeys: String, CodingKey {
        case outcome, why, pickedTransactionId, checks, ownershipVerdict, ownership, orderState, sandboxInProduction
        /// What verdicts kept before reasons were typed hold in words.
        case reason, ownershipReason
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        outcome = try container.decode(AttemptOutcome.self, forKey: .outcome)
        why =
            try container.decodeIfPresent(Why.self, forKey: .why)
            ?? container.decodeIfPresent(String.self, forKey: .reason).map { Why(.unclassified, ReasonParticulars(words: $0)) }
        pickedTransactionId = try container.decodeIfPresent(String.self, forKey: .pickedTransactionId)
        checks = try container.decode([ReceiptCheck].self, forKey: .checks)
        ownershipVerdict = try container.decodeIfPresent(OwnershipVerdict.self, forKey: .ownershipVerdict)
        ownership = try container.decodeIfPresent(OwnershipRule.Decision.self, forKey: .ownership)
        ownershipWords = try container.decodeIfPresent(String.self, forKey: .ownershipReason)
        orderState = try container.decode(OrderState.self, forKey: .orderState)
        sandboxInProduction = try container.decode(Bool.self, forKey: .sandboxInProduction)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(outcome, forKey: .outcome)
        try container.encodeIfPresent(why, forKey: .why)
        try container.encodeIfPresent(pickedTransactionId, forKey: .pickedTransactionId)
        try container.encode(checks, forKey: .checks)
        try container.encodeIfPresent(ownershipVerdict, forKey: .ownershipVerdict)
        try container.encodeIfPresent(ownership, forKey: .ownership)
        try container.encodeIfPresent(ownershipWords, forKey: .ownershipReason)
        try container.encode(orderState, forKey: .orderState)
        try container.encode(sandboxInProduction, forKey: .sandboxInProduction)
    }
}
