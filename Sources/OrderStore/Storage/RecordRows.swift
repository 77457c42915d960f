/// Row decoding for the records in Queries/Records.swift.

extension StoredTransaction {
    static let columns = """
        transaction_id, original_transaction_id, product_id, quantity, purchase_date, original_purchase_date, expires_date,
        cancellation_date, cancellation_reason, web_order_line_item_id, ownership_type, environment, order_id, submitted_by, first_seen_at, is_upgraded,
        refunded_share, app_transaction_id, storefront, app_account_token, offer_type, offer_identifier, billing_plan, commitment_payment,
        commitment_payments, commitment_ends_at, finished_at, purchase_token
        """
    init(row: Row) throws {
        transaction = AppleTransaction(
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
        finishedAt = try row.optionalInt64("finished_at")
        transaction.purchaseToken = try row.optionalString("purchase_token")
        environment = try row.optionalValue("environment", as: AppleEnvironment.self)
        orderId = try row.optionalString("order_id")
        submittedBy = try row.optionalString("submitted_by")
        firstSeenAt = try row.int64("first_seen_at")
    }
}

extension Submission {
    init(row: Row) throws {
        id = try row.int64("id")
        orderId = try row.optionalString("order_id")
        accountId = try row.string("account_id")
        claimedTransactionId = try row.optionalString("claimed_transaction_id")
        source = try row.value("source", as: SubmissionSource.self)
        receiptData = try row.string("receipt_data")
        kind = try row.value("kind", as: EvidenceKind.self)
        receivedAt = try row.int64("received_at")
    }
}

extension VerificationAttempt {
    init(row: Row) throws {
        id = try row.int64("id")
        at = try row.int64("at")
        method = try row.value("method", as: VerificationMethod.self)
        environment = try row.optionalValue("environment", as: AppleEnvironment.self)
        outcome = try row.value("outcome", as: AttemptOutcome.self)
        appleStatus = try row.optionalInt("apple_status")
        httpStatus = try row.optionalInt("http_status")
        latencyMs = try row.int("latency_ms")
        reason = try row.optionalString("reason")
        body = try row.optionalString("body")
        verdict = try StoredVerdict(json: try row.optionalString("verdict"), attempt: id)
    }
}

extension Grant {
    init(row: Row) throws {
        id = try row.int64("id")
        orderId = try row.string("order_id")
        accountId = try row.string("account_id")
        transactionId = try row.optionalString("transaction_id")
        kind = try row.value("kind", as: GrantKind.self)
        operatorName = try row.string("operator")
        reason = try row.optionalString("reason")
        grantedAt = try row.int64("granted_at")
        revokedAt = try row.optionalInt64("revoked_at")
        revokedBy = try row.optionalString("revoked_by")
        revokeReason = try row.optionalString("revoke_reason")
    }
}

extension Subscription {
    init(row: Row) throws {
        originalTransactionId = try row.string("original_transaction_id")
        ownerAccount = try row.optionalString("owner_account")
        productId = try row.string("product_id")
        status = try row.value("status", as: SubscriptionStatus.self)
        autoRenew = try row.bool("auto_renew")
        expiresAt = try row.optionalInt64("expires_at")
        ownerSince = try row.int64("owner_since")
        decidedBy = Decider(stored: try row.string("decided_by"))
        factsAsOf = try row.optionalInt64("facts_as_of")
        factsSource = try row.optionalValue("facts_source", as: FactSource.self)
        let (renews, renewsAt, renewsTo) = (
            try row.optionalInt("commitment_renews"), try row.optionalInt64("commitment_renews_at"), try row.optionalString("commitment_renews_to")
        )
        renewal = RenewalFacts(
            renewsTo: try row.optionalString("renews_to"), graceUntil: try row.optionalInt64("grace_until"), billingRetry: try row.bool("billing_retry"),
            priceIncrease: try row.optionalInt("price_increase"), billingPlan: try row.optionalString("billing_plan"),
            commitment: renews == nil && renewsAt == nil && renewsTo == nil
                ? nil : RenewalCommitment(renews: renews.map { $0 != 0 }, renewsAt: renewsAt, renewsTo: renewsTo),
            winBackOffers: try row.optionalString("win_back_offers").map { $0.split(separator: " ").map(String.init) } ?? [])
    }
}

extension OwnershipEvent {
    init(row: Row) throws {
        id = try row.int64("id")
        originalTransactionId = try row.string("original_transaction_id")
        orderId = try row.optionalString("order_id")
        submittedBy = try row.string("submitted_by")
        fromAccount = try row.optionalString("from_account")
        toAccount = try row.string("to_account")
        at = try row.int64("at")
        decidedBy = Decider(stored: try row.string("decided_by"))
        verdict = try row.value("verdict", as: OwnershipVerdict.self)
        reason = try row.string("reason")
        needsReview = try row.bool("needs_review")
    }
}

extension AuditEntry {
    init(row: Row) throws {
        seq = try row.int64("seq")
        at = try row.int64("at")
        actor = try row.string("actor")
        role = try row.value("role", as: AuditRole.self)
        action = try row.string("action")
        target = AuditTarget(stored: try row.string("target"))
        reason = try row.optionalString("reason")
        detail = try row.string("detail")
        if let from = try row.optionalInt64("grants_from"), let to = try row.optionalInt64("grants_to"), from <= to { grants = from...to }
        hash = try row.string("hash")
    }
}

extension AccountFlag {
    init(row: Row) throws {
        accountId = try row.string("account_id")
        flag = try row.value("flag", as: AccountFlagKind.self)
        orderId = try row.optionalString("order_id")
        detail = try row.string("detail")
        at = try row.int64("at")
    }
}
