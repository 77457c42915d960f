/// How a delivery came about; kept on the grant row and in its audit action.
public enum GrantKind: String, Sendable, Codable, CaseIterable {
    /// The rules delivered a verified purchase.
    case automatic
    /// An operator granted it, with a reason (also a settled dispute or an attached orphan).
    case manual
    /// The account that owns a non-consumable or subscription restored it (R7: no replay).
    case restore
    /// Apple reversed a refund (REFUND_REVERSED): the purchase is delivered again (R9).
    case refundReversed = "refund_reversed"

    package var auditAction: AuditAction {
        switch self {
        case .automatic: .deliver
        case .manual: .grant
        case .restore: .deliverRestore
        case .refundReversed: .refundReversed
        }
    }
}
