import OrderDomain

/// Rows for one batch of a bulk load, table by table. Each row lists its values in the order
/// of the columns `write(to:)` names for its table; the layout stays here, with the store.
@_spi(BulkLoad)
public struct BulkRows: Sendable {
    public typealias Values = [any BulkConvertible]
    public var orders: [Values] = []
    public var submissions: [Values] = []
    public var attempts: [Values] = []
    public var transactions: [Values] = []
    public var claims: [Values] = []
    public var grants: [Values] = []
    public var flags: [Values] = []
    public var ownership: [Values] = []
    public var subscriptions: [Values] = []
    /// Written by `BulkAuditChain.append`, which keeps the chain's hashes.
    public internal(set) var audit: [Values] = []
    public var jobs: [Values] = []
    /// What Google reports of each purchase token, in ``playPurchaseColumns`` order.
    public var playPurchases: [Values] = []

    public static let playPurchaseColumns = [
        "purchase_token", "package_name", "product_id", "kind", "order_id", "purchase_state", "acknowledged", "consumed", "quantity", "purchase_time",
        "expiry_time", "subscription_state", "auto_renew", "root_token", "obfuscated_account_id", "region_code", "is_test", "acknowledge_by",
        "acknowledged_at", "consumed_at", "first_seen_at", "updated_at",
    ]

    public init() {}

    func write(to writer: BulkWriter) async throws {
        try await writer.insert(
            into: "orders",
            columns: [
                "order_id", "account_id", "product_id", "quantity", "created_at", "state", "state_changed_at", "version", "updated_by",
                "stuck_since", "environment", "transaction_id", "original_transaction_id", "attempts", "first_failure_at",
                "next_retry_at", "reason_details", "reason_code", "needs_operator", "replay_flag", "app", "marketplace",
            ], rows: orders)
        try await writer.insert(
            into: "receipt_submissions",
            columns: [
                "id", "order_id", "account_id", "claimed_transaction_id", "source", "receipt_data", "received_at", "purchase_token", "kind",
            ], rows: submissions)
        try await writer.insert(
            into: "verification_attempts",
            columns: [
                "order_id", "submission_id", "at", "method", "environment", "outcome", "apple_status", "http_status", "latency_ms",
                "why", "body",
            ], rows: attempts)
        try await writer.insert(
            into: "transactions",
            columns: [
                "transaction_id", "original_transaction_id", "product_id", "quantity", "purchase_date", "original_purchase_date",
                "expires_date", "cancellation_date", "cancellation_reason", "web_order_line_item_id", "ownership_type", "environment",
                "order_id", "submitted_by", "first_seen_at", "purchase_token",
            ], rows: transactions)
        try await writer.insert(into: "claims", columns: ["claim_key", "order_id", "account_id", "transaction_id", "at"], rows: claims)
        try await writer.insert(
            into: "grants",
            columns: [
                "order_id", "account_id", "transaction_id", "kind", "operator", "reason", "granted_at", "revoked_at", "revoked_by",
                "revoke_reason", "revoke_why",
            ], rows: grants)
        try await writer.insert(into: "account_flags", columns: ["account_id", "flag", "order_id", "detail", "why", "at"], rows: flags)
        try await writer.insert(
            into: "ownership_events",
            columns: [
                "original_transaction_id", "order_id", "submitted_by", "from_account", "to_account", "at", "decided_by", "verdict",
                "reason", "decision", "needs_review",
            ], rows: ownership)
        try await writer.insert(
            into: "subscriptions",
            columns: [
                "original_transaction_id", "owner_account", "product_id", "status", "auto_renew", "expires_at", "owner_since",
                "decided_by", "updated_at", "marketplace",
            ], rows: subscriptions)
        try await writer.insert(into: "play_purchases", columns: Self.playPurchaseColumns, rows: playPurchases)
        try await writer.insert(into: "jobs", columns: ["kind", "subject", "due_at", "created_at"], rows: jobs)
        try await writer.insert(
            into: "audit_log",
            columns: [
                "seq", "at", "actor", "role", "action", "target", "reason", "detail", "prev_hash", "hash", "mac", "grants_from", "grants_to", "why",
            ], rows: audit)
    }
}
