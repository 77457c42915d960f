/// Row decoding for the records of OrderDomain (Records/Records.swift): each decodes its
/// columns, then builds the record through its every-field initializer.

extension StoredTransaction {
    static let columns = """
        transaction_id, original_transaction_id, product_id, quantity, purchase_date, original_purchase_date, expires_date,
        cancellation_date, cancellation_reason, web_order_line_item_id, ownership_type, environment, order_id, submitted_by, first_seen_at, is_upgraded,
        refunded_share, app_transaction_id, storefront, app_account_token, offer_type, offer_identifier, billing_plan, commitment_payment,
        commitment_payments, commitment_ends_at, finished_at, purchase_token
        """
    init(row: Row) throws {
        var transaction = AppleTransaction(
            transactionId: try row.string("transaction_id"), originalTransactionId: try row.string("original_transaction_id"),
            productId: try row.string("product_id"), quantity: try row.int("quantity"), purchaseDate: try row.int64("purchase_date"),
            originalPurchaseDate: try row.optionalInt64("original_purchase_date"), expiresDate: try row.optionalInt64("expires_date"),
            cancellationDate: try row.optionalInt64("cancellation_date"), cancellationReason: try row.optionalInt("cancellation_reason"),
            webOrderLineItemId: try row.optionalString("web_order_line_item_id"), ownershipType: try row.optionalString("ownership_type"),
            isUpgraded: try row.bool("is_upgraded"))
        transaction.refundedShare = try row.optionalInt("refunded_share")
        transaction.appTransactionId = try row.optionalString("app_transaction_id")
        transaction.storefront = try row.optionalString("storefront")
        transaction.appAccountToken = try row.optionalString("app_account_token")
        transaction.offer = try row.optionalInt("offer_type").map { AppleOffer(type: $0, identifier: try row.optionalString("offer_identifier")) }
        transaction.billingPlan = try row.optionalString("billing_plan")
        let (payment, payments, endsAt) = (
            try row.optionalInt("commitment_payment"), try row.optionalInt("commitment_payments"), try row.optionalInt64("commitment_ends_at")
        )
        if payment != nil || payments != nil || endsAt != nil { transaction.commitment = Commitment(payment: payment, payments: payments, endsAt: endsAt) }
        transaction.purchaseToken = try row.optionalString("purchase_token")
        self.init(
            transaction: transaction, environment: try row.optionalValue("environment", as: AppleEnvironment.self),
            orderId: try row.optionalString("order_id"), submittedBy: try row.optionalString("submitted_by"), firstSeenAt: try row.int64("first_seen_at"),
            finishedAt: try row.optionalInt64("finished_at"))
    }
}

extension Submission {
    init(row: Row) throws {
        let id = try row.int64("id")
        let orderId = try row.optionalString("order_id")
        let accountId = try row.string("account_id")
        let claimedTransactionId = try row.optionalString("claimed_transaction_id")
        let source = try row.value("source", as: SubmissionSource.self)
        let receiptData = try row.string("receipt_data")
        let kind = try row.value("kind", as: EvidenceKind.self)
        let receivedAt = try row.int64("received_at")
        self.init(
            id: id, orderId: orderId, accountId: accountId, claimedTransactionId: claimedTransactionId, source: source, receiptData: receiptData, kind: kind,
            receivedAt: receivedAt)
    }
}

extension VerificationAttempt {
    init(row: Row) throws {
        let id = try row.int64("id")
        let at = try row.int64("at")
        let method = try row.value("method", as: VerificationMethod.self)
        let environment = try row.optionalValue("environment", as: AppleEnvironment.self)
        let outcome = try row.value("outcome", as: AttemptOutcome.self)
        let appleStatus = try row.optionalInt("apple_status")
        let httpStatus = try row.optionalInt("http_status")
        let latencyMs = try row.int("latency_ms")
        let reason = try row.optionalString("reason")
        let body = try row.optionalString("body")
        let verdict = try StoredVerdict(json: try row.optionalString("verdict"), attempt: id)
        self.init(
            id: id, at: at, method: method, environment: environment, outcome: outcome, appleStatus: appleStatus, httpStatus: httpStatus, latencyMs: latencyMs,
            reason: reason, body: body, verdict: verdict)
    }
}

extension Grant {
    init(row: Row) throws {
        let id = try row.int64("id")
        let orderId = try row.string("order_id")
        let accountId = try row.string("account_id")
        let transactionId = try row.optionalString("transaction_id")
        let kind = try row.value("kind", as: GrantKind.self)
        let operatorName = try row.string("operator")
        let reason = try row.optionalString("reason")
        let grantedAt = try row.int64("granted_at")
        let revokedAt = try row.optionalInt64("revoked_at")
        let revokedBy = try row.optionalString("revoked_by")
        let revokeReason = try row.optionalString("revoke_reason")
        self.init(
            id: id, orderId: orderId, accountId: accountId, transactionId: transactionId, kind: kind, operatorName: operatorName, reason: reason,
            grantedAt: grantedAt, revokedAt: revokedAt, revokedBy: revokedBy, revokeReason: revokeReason)
    }
}

extension Subscription {
    init(row: Row) throws {
        let originalTransactionId = try row.string("original_transaction_id")
        let ownerAccount = try row.optionalString("owner_account")
        let productId = try row.string("product_id")
        let status = try row.value("status", as: SubscriptionStatus.self)
        let autoRenew = try row.bool("auto_renew")
        let expiresAt = try row.optionalInt64("expires_at")
        let ownerSince = try row.int64("owner_since")
        let decidedBy = Decider(stored: try row.string("decided_by"))
        let factsAsOf = try row.optionalInt64("facts_as_of")
        let factsSource = try row.optionalValue("facts_source", as: FactSource.self)
        let (renews, renewsAt, renewsTo) = (
            try row.optionalInt("commitment_renews"), try row.optionalInt64("commitment_renews_at"), try row.optionalString("commitment_renews_to")
        )
        let renewal = RenewalFacts(
            renewsTo: try row.optionalString("renews_to"), graceUntil: try row.optionalInt64("grace_until"), billingRetry: try row.bool("billing_retry"),
            priceIncrease: try row.optionalInt("price_increase"), billingPlan: try row.optionalString("billing_plan"),
            commitment: renews == nil && renewsAt == nil && renewsTo == nil
                ? nil : RenewalCommitment(renews: renews.map { $0 != 0 }, renewsAt: renewsAt, renewsTo: renewsTo),
            winBackOffers: try row.optionalString("win_back_offers").map { $0.split(separator: " ").map(String.init) } ?? [])
        self.init(
            originalTransactionId: originalTransactionId, ownerAccount: ownerAccount, productId: productId, status: status, autoRenew: autoRenew,
            expiresAt: expiresAt, ownerSince: ownerSince, decidedBy: decidedBy, factsAsOf: factsAsOf, factsSource: factsSource, renewal: renewal)
    }
}

extension OwnershipEvent {
    init(row: Row) throws {
        let id = try row.int64("id")
        let originalTransactionId = try row.string("original_transaction_id")
        let orderId = try row.optionalString("order_id")
        let submittedBy = try row.string("submitted_by")
        let fromAccount = try row.optionalString("from_account")
        let toAccount = try row.string("to_account")
        let at = try row.int64("at")
        let decidedBy = Decider(stored: try row.string("decided_by"))
        let verdict = try row.value("verdict", as: OwnershipVerdict.self)
        let reason = try row.string("reason")
        let needsReview = try row.bool("needs_review")
        self.init(
            id: id, originalTransactionId: originalTransactionId, orderId: orderId, submittedBy: submittedBy, fromAccount: fromAccount, toAccount: toAccount,
            at: at, decidedBy: decidedBy, verdict: verdict, reason: reason, needsReview: needsReview)
    }
}

extension AuditEntry {
    init(row: Row) throws {
        var grants: ClosedRange<Int64>?
        if let from = try row.optionalInt64("grants_from"), let to = try row.optionalInt64("grants_to"), from <= to { grants = from...to }
        self.init(
            seq: try row.int64("seq"), at: try row.int64("at"), actor: try row.string("actor"), role: try row.value("role", as: AuditRole.self),
            action: try row.string("action"), target: AuditTarget(stored: try row.string("target")), reason: try row.optionalString("reason"),
            detail: try row.string("detail"), grants: grants, hash: try row.string("hash"))
    }
}

extension AccountFlag {
    init(row: Row) throws {
        let accountId = try row.string("account_id")
        let flag = try row.value("flag", as: AccountFlagKind.self)
        let orderId = try row.optionalString("order_id")
        let detail = try row.string("detail")
        let at = try row.int64("at")
        self.init(accountId: accountId, flag: flag, orderId: orderId, detail: detail, at: at)
    }
}
