/// What support wrote on an order or an account for whoever reads it next ("player sent
/// bank statement, ticket 881"): who, when, the text. Kept as written; sanitized where shown.
public struct Note: Sendable, Equatable {
    /// What a note is on.
    public enum Target: Sendable, Equatable, Hashable {
        case order(String)
        case account(String)

        package var kind: RecordKind {
            switch self {
            case .order: .order
            case .account: .account
            }
        }
        package var id: String {
            switch self {
            case .order(let id), .account(let id): id
            }
        }
        /// The audit log's target for it.
        package var auditTarget: AuditTarget {
            switch self {
            case .order(let id): .order(id)
            case .account(let id): .account(id)
            }
        }
    }

    public var id: Int64
    public var target: Target
    public var author: String
    public var at: Millis
    public var text: String

    /// Longer notes belong in the ticket they point to.
    public static let maxLength = 2_000

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(id: Int64, target: Target, author: String, at: Millis, text: String) {
        self.id = id
        self.target = target
        self.author = author
        self.at = at
        self.text = text
    }
}
