/// One input of a dialog, declared where the dialog is built: its label (also how the
/// action reads its value back), what the store already knew, and whether it may be left
/// empty. The audit reason is a field like any other (``reason``), so no dialog relies on
/// where its fields stand.
public struct DialogField: Hashable, Sendable {
    public let label: String
    let prefilled: String
    let isRequired: Bool
    /// The reason the audit log keeps: when it is missing, the dialog says why it is asked.
    let isAuditReason: Bool

    public init(_ label: String, prefilled: String = "", required: Bool = true) {
        self.init(label: label, prefilled: prefilled, required: required, auditReason: false)
    }

    private init(label: String, prefilled: String, required: Bool, auditReason: Bool) {
        self.label = label
        self.prefilled = prefilled
        self.isRequired = required
        self.isAuditReason = auditReason
    }

    /// The operator's reason, which the audit log keeps with the action.
    public static let reason = DialogField(label: "Reason", prefilled: "", required: true, auditReason: true)

    /// What the dialog says when the field is empty but required.
    var missing: String { isAuditReason ? "a reason is required: it goes into the audit log" : "\(label) is required" }
}

/// What the operator typed, trimmed, read by field.
public struct DialogValues: Sendable {
    private let byLabel: [String: String]

    init(_ entries: [(DialogField, String)]) {
        byLabel = Dictionary(entries.map { ($0.0.label, $0.1) }, uniquingKeysWith: { first, _ in first })
    }

    public subscript(field: DialogField) -> String { byLabel[field.label] ?? "" }
}
