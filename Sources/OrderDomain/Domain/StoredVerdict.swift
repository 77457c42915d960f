import Foundation

/// What the store decided about one verification attempt, kept with it: the receipt
/// screen and `order show` print this record rather than recomputing R5–R8 themselves.
public struct StoredVerdict: Sendable, Equatable, Codable {
    public var outcome: AttemptOutcome
    /// Why the order went where it went (the rejection, retry or dispute reason).
    public var reason: String?
    /// R6: the transaction the order was matched with.
    public var pickedTransactionId: String?
    /// R5, in the order they ran.
    public var checks: [ReceiptCheck]
    public var ownershipVerdict: OwnershipVerdict?
    public var ownershipReason: String?
    /// The order's state once the rules were done.
    public var orderState: OrderState
    /// R2: a sandbox purchase in a production store.
    public var sandboxInProduction: Bool

    package func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Nil for attempts stored before verdicts were kept.
    ///
    /// - Throws: ``StoreError/corrupt(_:)`` naming the attempt when its record does not read:
    ///   the receipt screen must not say "no verdict kept" about one that was.
    package init?(json: String?, attempt: Int64) throws {
        guard let json else { return nil }
        do {
            self = try JSONDecoder().decode(StoredVerdict.self, from: Data(json.utf8))
        } catch {
            throw StoreError.corrupt("verification attempt \(attempt): its stored verdict does not decode (\(error))")
        }
    }

    public init(
        outcome: AttemptOutcome, reason: String?, pickedTransactionId: String?, checks: [ReceiptCheck],
        ownershipVerdict: OwnershipVerdict?, ownershipReason: String?, orderState: OrderState, sandboxInProduction: Bool
    ) {
        self.outcome = outcome
        self.reason = reason
        self.pickedTransactionId = pickedTransactionId
        self.checks = checks
        self.ownershipVerdict = ownershipVerdict
        self.ownershipReason = ownershipReason
        self.orderState = orderState
        self.sandboxInProduction = sandboxInProduction
    }
}
