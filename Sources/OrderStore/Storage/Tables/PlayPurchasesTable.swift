import OrderDomain
import SQLKit

/// Google Play's purchase tokens as the store keeps them (``PlayPurchaseFacts``), each with
/// the first token of its chain: a plan change mints a token linked to the one it replaced,
/// and the chain is one subscription, as an original transaction id is Apple's.
extension WriteTransaction {
    /// Keeps what Google said of a token, and returns the first token of its chain. What
    /// only grows stays grown: acknowledged and consumed never go back.
    @discardableResult
    func storePlayPurchase(_ p: PlayPurchaseFacts) async throws -> String {
        var root = p.purchaseToken
        if let linked = p.linkedPurchaseToken {
            root = try await sql.row("SELECT root_token FROM play_purchases WHERE purchase_token = \(bind: linked)")?.optionalString("root_token") ?? linked
        }
        try await sql.raw(
            """
            INSERT INTO play_purchases (purchase_token, package_name, product_id, kind, order_id, purchase_state, acknowledged, consumed, quantity,
              refundable_quantity, purchase_time, expiry_time, subscription_state, auto_renew, linked_purchase_token, root_token,
              obfuscated_account_id, obfuscated_profile_id, region_code, is_test, acknowledge_by, first_seen_at, updated_at)
            VALUES (\(bind: p.purchaseToken), \(bind: p.packageName), \(bind: p.productId), \(bind: p.kind.rawValue), \(bind: p.orderId),
              \(bind: p.state.rawValue), \(bind: p.acknowledged ? 1 : 0), \(bind: p.consumed ? 1 : 0), \(bind: p.quantity), \(bind: p.refundableQuantity),
              \(bind: p.purchaseTime), \(bind: p.expiryTime), \(bind: p.subscriptionState), \(bind: p.autoRenew.map { $0 ? 1 : 0 }),
              \(bind: p.linkedPurchaseToken), \(bind: root), \(bind: p.obfuscatedAccountId), \(bind: p.obfuscatedProfileId), \(bind: p.regionCode),
              \(bind: p.isTest ? 1 : 0), \(bind: p.acknowledgeBy), \(bind: now), \(bind: now))
            ON CONFLICT (purchase_token) DO UPDATE SET order_id = COALESCE(excluded.order_id, play_purchases.order_id),
              purchase_state = excluded.purchase_state,
              acknowledged = CASE WHEN play_purchases.acknowledged = 1 THEN 1 ELSE excluded.acknowledged END,
              consumed = CASE WHEN play_purchases.consumed = 1 THEN 1 ELSE excluded.consumed END,
              acknowledge_by = CASE WHEN play_purchases.acknowledged = 1 OR excluded.acknowledged = 1 THEN NULL ELSE excluded.acknowledge_by END,
              quantity = excluded.quantity, refundable_quantity = excluded.refundable_quantity, purchase_time = excluded.purchase_time,
              expiry_time = excluded.expiry_time, subscription_state = excluded.subscription_state, auto_renew = excluded.auto_renew,
              linked_purchase_token = excluded.linked_purchase_token, root_token = excluded.root_token,
              obfuscated_account_id = excluded.obfuscated_account_id, obfuscated_profile_id = excluded.obfuscated_profile_id,
              region_code = excluded.region_code, is_test = excluded.is_test, updated_at = excluded.updated_at
            """
        ).run()
        return root
    }

    /// Keeps what Google said of a token and returns `content` with its orders rooted in
    /// their chain (``PlayChain``): what the rules read of a Play answer.
    func keepPlayPurchase(_ play: PlayPurchaseFacts, content: AppleReceiptContent?) async throws -> AppleReceiptContent? {
        let root = try await storePlayPurchase(play)
        guard var content else { return nil }
        if root != play.purchaseToken, let original = try await chainOriginal(root: root) {
            content = PlayChain.rooted(content, token: play.purchaseToken, at: original)
        }
        return try await withKnownVoids(content)
    }

    /// Google's answer about a purchase does not say it was voided; the void (its
    /// notification, or the sweep) may have come before the game submitted the purchase and
    /// is kept on the transaction. The rules see it there (R5's "not cancelled", R9).
    private func withKnownVoids(_ content: AppleReceiptContent) async throws -> AppleReceiptContent {
        func known(_ transaction: AppleTransaction) async throws -> AppleTransaction {
            guard transaction.cancellationDate == nil, let stored = try await storedTransaction(transaction.transactionId)?.transaction,
                let voided = stored.cancellationDate
            else { return transaction }
            var merged = transaction
            merged.cancellationDate = voided
            merged.cancellationReason = merged.cancellationReason ?? stored.cancellationReason
            merged.refundedShare = merged.refundedShare ?? stored.refundedShare
            return merged
        }
        var result = content
        var inApp: [AppleTransaction] = []
        for transaction in content.inApp { inApp.append(try await known(transaction)) }
        var latest: [AppleTransaction] = []
        for transaction in content.latestReceiptInfo { latest.append(try await known(transaction)) }
        result.inApp = inApp
        result.latestReceiptInfo = latest
        return result
    }

    /// The original of the chain `root` starts: its first order, as the store keeps its
    /// transactions; nil when none of them is stored.
    func chainOriginal(root: String) async throws -> String? {
        try await sql.row(
            "SELECT original_transaction_id FROM transactions WHERE purchase_token = \(bind: root) ORDER BY purchase_date LIMIT 1"
        )?.optionalString("original_transaction_id")
    }

    func playPurchase(_ token: String) async throws -> StoredPlayPurchase? {
        try await sql.row("SELECT \(unsafeRaw: StoredPlayPurchase.Column.list) FROM play_purchases WHERE purchase_token = \(bind: token)").map(
            StoredPlayPurchase.init(row:))
    }

    /// Google took the developer's acknowledgement (and consumption) of a token.
    func recordAcknowledged(_ token: String, consumed: Bool) async throws {
        try await sql.raw(
            """
            UPDATE play_purchases SET acknowledged = 1, acknowledge_by = NULL, acknowledged_at = COALESCE(acknowledged_at, \(bind: now)),
              consumed = CASE WHEN \(bind: consumed ? 1 : 0) = 1 THEN 1 ELSE consumed END,
              consumed_at = CASE WHEN \(bind: consumed ? 1 : 0) = 1 THEN COALESCE(consumed_at, \(bind: now)) ELSE consumed_at END,
              updated_at = \(bind: now)
            WHERE purchase_token = \(bind: token)
            """
        ).run()
    }
}

extension StoredPlayPurchase: StoredRecord {
    enum Column: String, TableColumn {
        case purchaseToken = "purchase_token", packageName = "package_name", productId = "product_id", kind, orderId = "order_id",
            purchaseState = "purchase_state", acknowledged, consumed, quantity, refundableQuantity = "refundable_quantity",
            purchaseTime = "purchase_time", expiryTime = "expiry_time", subscriptionState = "subscription_state", autoRenew = "auto_renew",
            linkedPurchaseToken = "linked_purchase_token", obfuscatedAccountId = "obfuscated_account_id",
            obfuscatedProfileId = "obfuscated_profile_id", regionCode = "region_code", isTest = "is_test", rootToken = "root_token",
            acknowledgeBy = "acknowledge_by", acknowledgedAt = "acknowledged_at", consumedAt = "consumed_at", firstSeenAt = "first_seen_at"
    }

    init(_ row: Columns<Column>) throws {
        let facts = PlayPurchaseFacts(
            purchaseToken: try row.string(.purchaseToken), packageName: try row.string(.packageName), productId: try row.string(.productId),
            kind: try row.value(.kind, as: PlayPurchaseFacts.Kind.self), orderId: try row.optionalString(.orderId),
            state: try row.value(.purchaseState, as: PlayPurchaseFacts.State.self), acknowledged: try row.bool(.acknowledged),
            consumed: try row.bool(.consumed), quantity: try row.int(.quantity), refundableQuantity: try row.optionalInt(.refundableQuantity),
            purchaseTime: try row.optionalInt64(.purchaseTime), expiryTime: try row.optionalInt64(.expiryTime),
            subscriptionState: try row.optionalString(.subscriptionState), autoRenew: try row.optionalInt(.autoRenew).map { $0 != 0 },
            linkedPurchaseToken: try row.optionalString(.linkedPurchaseToken), obfuscatedAccountId: try row.optionalString(.obfuscatedAccountId),
            obfuscatedProfileId: try row.optionalString(.obfuscatedProfileId), regionCode: try row.optionalString(.regionCode),
            isTest: try row.bool(.isTest))
        self.init(
            facts: facts, rootToken: try row.string(.rootToken), acknowledgeBy: try row.optionalInt64(.acknowledgeBy),
            acknowledgedAt: try row.optionalInt64(.acknowledgedAt), consumedAt: try row.optionalInt64(.consumedAt),
            firstSeenAt: try row.int64(.firstSeenAt))
    }
}
