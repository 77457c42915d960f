import Foundation
import SQLKit

extension OrderStore {
    /// R8 applied: reads the owner as the store knew it before this receipt, decides, and
    /// records the decision (an ownership event; those needing review show in `:disputes`).
    func decideOwnership(_ tx: WriteTransaction, order: Order, transaction: AppleTransaction, content: AppleReceiptContent) async throws -> OwnershipRule.Decision {
        let otid = transaction.originalTransactionId
        let existing = try await tx.sql.row("SELECT owner_account, auto_renew FROM subscriptions WHERE original_transaction_id = \(bind: otid)")
        let current = try existing.map { OwnershipRule.CurrentOwner(accountId: try $0.string("owner_account"), autoRenewing: try $0.bool("auto_renew")) }
        let decision = OwnershipRule.decide(current: current, submitter: order.accountId)

        // What Apple says now: the period this receipt reaches and whether it renews.
        let chain = TransactionPicking.merged(content).filter { $0.originalTransactionId == otid }
        let expiresAt = chain.compactMap(\.expiresDate).max()
        let renewing = content.pendingRenewals.first { $0.originalTransactionId == otid }?.autoRenewEnabled ?? true

        let owner: String
        switch decision {
        case .firstOwner(let account), .transfer(_, let account): owner = account
        case .sameOwner, .ownerKeeps: owner = current?.accountId ?? order.accountId
        }
        if current == nil {
            try await tx.sql.raw("""
                INSERT INTO subscriptions (original_transaction_id, owner_account, product_id, status, auto_renew, expires_at,
                  owner_since, decided_by, updated_at)
                VALUES (\(bind: otid), \(bind: owner), \(bind: transaction.productId), 'active', \(bind: renewing ? 1 : 0),
                        \(bind: expiresAt), \(bind: tx.now), 'rule', \(bind: tx.now))
                """).run()
        } else {
            // A new owner starts a new tenure; the same owner keeps theirs.
            try await tx.sql.raw("""
                UPDATE subscriptions SET product_id = \(bind: transaction.productId), status = 'active',
                  auto_renew = \(bind: renewing ? 1 : 0), expires_at = \(bind: expiresAt), updated_at = \(bind: tx.now),
                  owner_since = CASE WHEN owner_account = \(bind: owner) THEN owner_since ELSE \(bind: tx.now) END,
                  decided_by = CASE WHEN owner_account = \(bind: owner) THEN decided_by ELSE 'rule' END,
                  owner_account = \(bind: owner)
                WHERE original_transaction_id = \(bind: otid)
                """).run()
        }
        if decision != .sameOwner {
            let verdict: String = switch decision {
            case .firstOwner: "first_owner"
            case .ownerKeeps: "owner_keeps"
            case .transfer: "transfer"
            case .sameOwner: "same_owner"
            }
            try await tx.sql.raw("""
                INSERT INTO ownership_events (original_transaction_id, order_id, submitted_by, from_account, to_account, at,
                  decided_by, verdict, reason, needs_review)
                VALUES (\(bind: otid), \(bind: order.orderId), \(bind: order.accountId), \(bind: current?.accountId), \(bind: owner),
                        \(bind: tx.now), 'rule', \(bind: verdict), \(bind: decision.explanation), \(bind: decision.needsReview ? 1 : 0))
                """).run()
            tx.audit("ownership.\(verdict)", target: "otid:\(otid)", detail: decision.explanation)
        }
        return decision
    }

    /// An operator moves a subscription to another account, with a reason (DESIGN.md §3 R8).
    public func transferOwnership(originalTransactionId otid: String, to account: String, by actor: Operator, reason: String, at now: Millis = .now()) async throws {
        try requireOperator(actor, may: "transfer subscription ownership", reason: reason)
        try await write(as: actor, now: now) { tx in
            guard let row = try await tx.sql.row("SELECT owner_account FROM subscriptions WHERE original_transaction_id = \(bind: otid)") else {
                throw StoreError.notFound(kind: "subscription", id: otid)
            }
            let from = try row.string("owner_account")
            guard from != account else { throw StoreError.invalid("\(account) already owns subscription \(otid)") }
            try await transfer(tx, otid: otid, from: from, to: account, orderId: nil, reason: reason)
        }
    }

    private func transfer(_ tx: WriteTransaction, otid: String, from: String, to: String, orderId: String?, reason: String) async throws {
        try await tx.sql.raw("""
            UPDATE subscriptions SET owner_account = \(bind: to), owner_since = \(bind: tx.now), decided_by = \(bind: tx.actor.name),
              updated_at = \(bind: tx.now)
            WHERE original_transaction_id = \(bind: otid)
            """).run()
        try await tx.sql.raw("""
            INSERT INTO ownership_events (original_transaction_id, order_id, submitted_by, from_account, to_account, at,
              decided_by, verdict, reason, needs_review)
            VALUES (\(bind: otid), \(bind: orderId), \(bind: to), \(bind: from), \(bind: to), \(bind: tx.now),
                    \(bind: tx.actor.name), 'operator_transfer', \(bind: reason), 0)
            """).run()
        tx.audit("ownership.transfer", target: "otid:\(otid)", reason: reason, detail: "\(from) → \(to)")
    }

    /// Settles a disputed order (R8): either the rule's verdict stands (the order is
    /// rejected; the renewal stays with the owner), or the submitter gets the subscription
    /// and the order is delivered. Either way the decision leaves the review list.
    public func resolveDispute(orderId: String, expectedVersion: Int64, favorSubmitter: Bool, by actor: Operator, reason: String, at now: Millis = .now()) async throws -> Order {
        try requireOperator(actor, may: "resolve disputes", reason: reason)
        return try await write(as: actor, now: now) { tx in
            let order = try await tx.sql.requireOrder(orderId)
            guard order.version == expectedVersion else { throw try await tx.conflict(orderId: orderId) }
            guard order.state == .disputed, let otid = order.originalTransactionId else {
                throw StoreError.invalid("order \(orderId) is \(order.state.rawValue), not disputed")
            }
            try await tx.sql.raw("UPDATE ownership_events SET needs_review = 0 WHERE order_id = \(bind: orderId) AND needs_review = 1").run()
            if favorSubmitter {
                let owner = try await tx.sql.row("SELECT owner_account FROM subscriptions WHERE original_transaction_id = \(bind: otid)")?.string("owner_account")
                if let owner, owner != order.accountId {
                    try await transfer(tx, otid: otid, from: owner, to: order.accountId, orderId: orderId, reason: reason)
                }
                return try await deliver(tx, order: order, transactionId: order.transactionId, kind: "manual", reason: reason)
            }
            var next = order
            next.state = .rejected
            next.lastError = "dispute settled for the owner: \(reason)"
            return try await tx.save(next, previous: order, action: "dispute.upheld", reason: reason)
        }
    }

    /// Apple told us (notification or renewal info) whether a subscription still renews.
    public func recordRenewalStatus(originalTransactionId otid: String, autoRenew: Bool, at now: Millis = .now()) async throws {
        try await write(as: .system, now: now) { tx in
            let updated = try await tx.sql.row("""
                UPDATE subscriptions SET auto_renew = \(bind: autoRenew ? 1 : 0), updated_at = \(bind: now)
                WHERE original_transaction_id = \(bind: otid) RETURNING owner_account
                """)
            guard updated != nil else { throw StoreError.notFound(kind: "subscription", id: otid) }
            tx.audit("subscription.renewal_status", target: "otid:\(otid)", detail: autoRenew ? "auto-renew on" : "auto-renew off")
        }
    }

    /// Operator actions need a role that may act and a reason for the audit log.
    func requireOperator(_ actor: Operator, may action: String, reason: String, minimum: Role = .support) throws {
        guard actor.role >= minimum, actor.role.mayAct else { throw StoreError.forbidden(action: action, role: actor.role) }
        guard !reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw StoreError.reasonRequired(action: action) }
    }
}
