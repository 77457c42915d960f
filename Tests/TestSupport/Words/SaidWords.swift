import OrderDomain
import Presentation

// What the console and the CLI say of a decision, for tests that read the words a person
// sees: the store keeps reasons as codes and facts, Presentation says them.

extension Order {
    /// The order's "last error" as the order page and `order show` print it.
    public var lastError: String? { ReasonWords.lastError(self) }
}

extension Why {
    /// The reason with its particulars, in the sentence Presentation says.
    public var words: String { ReasonWords.sentence(self) }
}

extension OwnershipRule.Decision {
    /// R8's decision as the subscription page says it.
    public var explanation: String { OwnershipWords.explanation(self) }
}

extension OwnershipEvent {
    /// Why ownership moved, as the subscription page says it (the rule's decision or the
    /// operator's words).
    public var said: String { OwnershipWords.said(self) }
}

extension NotificationRecord {
    /// What applying the notification did (or why it was refused), as the notification page
    /// says it.
    public var said: String? { NotificationWords.detail(self) }
}

extension AuditEntry {
    /// What the entry recorded, as the audit log and an order's history say it.
    public var said: String { AuditWords.detail(detail) ?? "" }
}
