/// What the rules made of one verification, for the caller (CLI, console, tests).
public struct VerificationOutcome: Sendable {
    public var order: Order
    public var classification: VerificationClass
    /// The transaction the order pays with (R6), when the receipt was valid.
    public var picked: AppleTransaction?
    /// R5, in order; empty when the receipt was not valid.
    public var checks: [ReceiptCheck]
    /// R8, for auto-renewing subscriptions.
    public var ownership: OwnershipRule.Decision?
    /// R2: a sandbox purchase in a production store.
    public var flaggedSandbox: Bool
    /// Apple's answer as the verifier reported it (status, environment, latency).
    public var report: VerificationReport
    /// What the store decided, as kept with the attempt.
    public var verdict: StoredVerdict {
        StoredVerdict(
            outcome: outcomeKind, why: order.why, pickedTransactionId: picked?.transactionId, checks: checks, ownership: ownership,
            orderState: order.state, sandboxInProduction: flaggedSandbox)
    }

    package var outcomeKind: AttemptOutcome = .valid

    package init(
        order: Order, classification: VerificationClass, picked: AppleTransaction? = nil, checks: [ReceiptCheck], ownership: OwnershipRule.Decision? = nil,
        flaggedSandbox: Bool, report: VerificationReport, outcomeKind: AttemptOutcome = .valid
    ) {
        self.order = order
        self.classification = classification
        self.picked = picked
        self.checks = checks
        self.ownership = ownership
        self.flaggedSandbox = flaggedSandbox
        self.report = report
        self.outcomeKind = outcomeKind
    }
}
