import OrderDomain

/// Row decoding for the records of OrderDomain (Records/Records.swift): each decodes its
/// columns, then builds the record through its every-field initializer.

extension StoredTransaction: StoredRecord {
    enum Column: String, TableColumn {
        case transactionId = "transaction_id", originalTransactionId = "original_transaction_id", productId = "product_id", quantity,
            purchaseDate = "purchase_date", originalPurchaseDate = "original_purchase_date", expiresDate = "expires_date",
            cancellationDate = "cancellation_date", cancellationReason = "cancellation_reason", webOrderLineItemId = "web_order_line_item_id",
            ownershipType = "ownership_type", environment, orderId = "order_id", submittedBy = "submitted_by", firstSeenAt = "first_seen_at",
            isUpgraded = "is_upgraded", refundedShare = "refunded_share", appTransactionId = "app_transaction_id", storefront,
            appAccountToken = "app_account_token", offerType = "offer_type", offerIdentifier = "offer_identifier", billingPlan = "billing_plan",
            commitmentPayment = "commitment_payment", commitmentPayments = "commitment_payments", commitmentEndsAt = "commitment_ends_at",
            finishedAt = "finished_at", purchaseToken = "purchase_token"
    }

    init(_ row: Columns<Column>) throws {
        var transaction = AppleTransaction(
            transactionId: try row.string(.transactionId), originalTransactionId: try row.string(.originalTransactionId),
            productId: try row.string(.productId), quantity: try row.int(.quantity), purchaseDate: try row.int64(.purchaseDate),
            originalPurchaseDate: try row.optionalInt64(.originalPurchaseDate), expiresDate: try row.optionalInt64(.expiresDate),
            cancellationDate: try row.optionalInt64(.cancellationDate), cancellationReason: try row.optionalInt(.cancellationReason),
            webOrderLineItemId: try row.optionalString(.webOrderLineItemId), ownershipType: try row.optionalString(.ownershipType),
            isUpgraded: try row.bool(.isUpgraded))
        transaction.refundedShare = try row.optionalInt(.refundedShare)
        transaction.appTransactionId = try row.optionalString(.appTransactionId)
        transaction.storefront = try row.optionalString(.storefront)
        transaction.appAccountToken = try row.optionalString(.appAccountToken)
        transaction.offer = try row.optionalInt(.offerType).map { AppleOffer(type: $0, identifier: try row.optionalString(.offerIdentifier)) }
        transaction.billingPlan = try row.optionalString(.billingPlan)
        let (payment, payments, endsAt) = (
            try row.optionalInt(.commitmentPayment), try row.optionalInt(.commitmentPayments), try row.optionalInt64(.commitmentEndsAt)
        )
        if payment != nil || payments != nil || endsAt != nil { transaction.commitment = Commitment(payment: payment, payments: payments, endsAt: endsAt) }
        transaction.purchaseToken = try row.optionalString(.purchaseToken)
        self.init(
            transaction: transaction, environment: try row.optionalValue(.environment, as: AppleEnvironment.self),
            orderId: try row.optionalString(.orderId), submittedBy: try row.optionalString(.submittedBy), firstSeenAt: try row.int64(.firstSeenAt),
            finishedAt: try row.optionalInt64(.finishedAt))
    }
}

extension Submission: StoredRecord {
    enum Column: String, TableColumn {
        case id, orderId = "order_id", accountId = "account_id", claimedTransactionId = "claimed_transaction_id", source,
            receiptData = "receipt_data", kind, receivedAt = "received_at"
    }

    init(_ row: Columns<Column>) throws {
        let id = try row.int64(.id)
        let orderId = try row.optionalString(.orderId)
        let accountId = try row.string(.accountId)
        let claimedTransactionId = try row.optionalString(.claimedTransactionId)
        let source = try row.value(.source, as: SubmissionSource.self)
        let receiptData = try row.string(.receiptData)
        let kind = try row.value(.kind, as: EvidenceKind.self)
        let receivedAt = try row.int64(.receivedAt)
        self.init(
            id: id, orderId: orderId, accountId: accountId, claimedTransactionId: claimedTransactionId, source: source, receiptData: receiptData, kind: kind,
            receivedAt: receivedAt)
    }
}

extension VerificationAttempt: StoredRecord {
    enum Column: String, TableColumn {
        case id, at, method, environment, outcome, appleStatus = "apple_status", httpStatus = "http_status", latencyMs = "latency_ms", reason, why, body,
            verdict
    }

    init(_ row: Columns<Column>) throws {
        let id = try row.int64(.id)
        let at = try row.int64(.at)
        let method = try row.value(.method, as: VerificationMethod.self)
        let environment = try row.optionalValue(.environment, as: AppleEnvironment.self)
        let outcome = try row.value(.outcome, as: AttemptOutcome.self)
        let appleStatus = try row.optionalInt(.appleStatus)
        let httpStatus = try row.optionalInt(.httpStatus)
        let latencyMs = try row.int(.latencyMs)
        let why = try Why(stored: try row.optionalString(.why), words: try row.optionalString(.reason), of: "verification attempt \(id)")
        let body = try row.optionalString(.body)
        let verdict = try StoredVerdict(json: try row.optionalString(.verdict), attempt: id)
        self.init(
            id: id, at: at, method: method, environment: environment, outcome: outcome, appleStatus: appleStatus, httpStatus: httpStatus, latencyMs: latencyMs,
            why: why, body: body, verdict: verdict)
    }
}

extension Grant: StoredRecord {
    enum Column: String, TableColumn {
        case id, orderId = "order_id", accountId = "account_id", transactionId = "transaction_id", kind, `operator`, reason,
            grantedAt = "granted_at", revokedAt = "revoked_at", revokedBy = "revoked_by", revokeReason = "revoke_reason",
            revokeWhy = "revoke_why"
    }

    init(_ row: Columns<Column>) throws {
        let id = try row.int64(.id)
        let orderId = try row.string(.orderId)
        let accountId = try row.string(.accountId)
        let transactionId = try row.optionalString(.transactionId)
        let kind = try row.value(.kind, as: GrantKind.self)
        let operatorName = try row.string(.operator)
        let reason = try row.optionalString(.reason)
        let grantedAt = try row.int64(.grantedAt)
        let revokedAt = try row.optionalInt64(.revokedAt)
        let revokedBy = try row.optionalString(.revokedBy)
        let revokeReason = try row.optionalString(.revokeReason)
        let revokeWhy = try Why(stored: try row.optionalString(.revokeWhy), words: nil, of: "grant \(id)")
        self.init(
            id: id, orderId: orderId, accountId: accountId, transactionId: transactionId, kind: kind, operatorName: operatorName, reason: reason,
            grantedAt: grantedAt, revokedAt: revokedAt, revokedBy: revokedBy, revokeReason: revokeReason,
            revokeWhy: revokeWhy)
    }
}

extension Subscription: StoredRecord {
    enum Column: String, TableColumn {
        case originalTransactionId = "original_transaction_id", ownerAccount = "owner_account", productId = "product_id", status,
            autoRenew = "auto_renew", expiresAt = "expires_at", ownerSince = "owner_since", decidedBy = "decided_by", factsAsOf = "facts_as_of",
            factsSource = "facts_source", commitmentRenews = "commitment_renews", commitmentRenewsAt = "commitment_renews_at",
            commitmentRenewsTo = "commitment_renews_to", renewsTo = "renews_to", graceUntil = "grace_until", billingRetry = "billing_retry",
            priceIncrease = "price_increase", billingPlan = "billing_plan", winBackOffers = "win_back_offers", marketplace
    }

    init(_ row: Columns<Column>) throws {
        let originalTransactionId = try row.string(.originalTransactionId)
        let ownerAccount = try row.optionalString(.ownerAccount)
        let productId = try row.string(.productId)
        let status = try row.value(.status, as: SubscriptionStatus.self)
        let autoRenew = try row.bool(.autoRenew)
        let expiresAt = try row.optionalInt64(.expiresAt)
        let ownerSince = try row.int64(.ownerSince)
        let decidedBy = Decider(stored: try row.string(.decidedBy))
        let factsAsOf = try row.optionalInt64(.factsAsOf)
        let factsSource = try row.optionalValue(.factsSource, as: FactSource.self)
        let (renews, renewsAt, renewsTo) = (
            try row.optionalInt(.commitmentRenews), try row.optionalInt64(.commitmentRenewsAt), try row.optionalString(.commitmentRenewsTo)
        )
        let renewal = RenewalFacts(
            renewsTo: try row.optionalString(.renewsTo), graceUntil: try row.optionalInt64(.graceUntil), billingRetry: try row.bool(.billingRetry),
            priceIncrease: try row.optionalInt(.priceIncrease), billingPlan: try row.optionalString(.billingPlan),
            commitment: renews == nil && renewsAt == nil && renewsTo == nil
                ? nil : RenewalCommitment(renews: renews.map { $0 != 0 }, renewsAt: renewsAt, renewsTo: renewsTo),
            winBackOffers: try row.optionalString(.winBackOffers).map { $0.split(separator: " ").map(String.init) } ?? [])
        self.init(
            originalTransactionId: originalTransactionId, ownerAccount: ownerAccount, productId: productId, status: status, autoRenew: autoRenew,
            expiresAt: expiresAt, ownerSince: ownerSince, decidedBy: decidedBy, factsAsOf: factsAsOf, factsSource: factsSource, renewal: renewal,
            marketplace: try row.value(.marketplace, as: Marketplace.self))
    }
}

extension OwnershipEvent: StoredRecord {
    enum Column: String, TableColumn {
        case id, originalTransactionId = "original_transaction_id", orderId = "order_id", submittedBy = "submitted_by", fromAccount = "from_account",
            toAccount = "to_account", at, decidedBy = "decided_by", verdict, reason, decision, needsReview = "needs_review"
    }

    init(_ row: Columns<Column>) throws {
        let id = try row.int64(.id)
        let originalTransactionId = try row.string(.originalTransactionId)
        let orderId = try row.optionalString(.orderId)
        let submittedBy = try row.string(.submittedBy)
        let fromAccount = try row.optionalString(.fromAccount)
        let toAccount = try row.string(.toAccount)
        let at = try row.int64(.at)
        let decidedBy = Decider(stored: try row.string(.decidedBy))
        let verdict = try row.value(.verdict, as: OwnershipVerdict.self)
        let reason = try row.string(.reason)
        let decision = try row.optionalString(.decision).map { try OwnershipRule.Decision(json: $0, of: "ownership event \(id)") }
        let needsReview = try row.bool(.needsReview)
        self.init(
            id: id, originalTransactionId: originalTransactionId, orderId: orderId, submittedBy: submittedBy, fromAccount: fromAccount, toAccount: toAccount,
            at: at, decidedBy: decidedBy, verdict: verdict, reason: reason, decision: decision, needsReview: needsReview)
    }
}

extension AuditEntry: StoredRecord {
    enum Column: String, TableColumn {
        case grantsFrom = "grants_from", grantsTo = "grants_to", seq, at, actor, role, action, target, reason, detail, hash, why
    }

    init(_ row: Columns<Column>) throws {
        var grants: ClosedRange<Int64>?
        if let from = try row.optionalInt64(.grantsFrom), let to = try row.optionalInt64(.grantsTo), from <= to { grants = from...to }
        self.init(
            seq: try row.int64(.seq), at: try row.int64(.at), actor: try row.string(.actor), role: try row.value(.role, as: AuditRole.self),
            action: AuditAction(stored: try row.string(.action)), target: AuditTarget(stored: try row.string(.target)), reason: try row.optionalString(.reason),
            detail: AuditDetail(storedText: try row.string(.detail)), grants: grants, hash: try row.string(.hash),
            why: try Why(stored: try row.optionalString(.why), words: nil, of: "audit entry \(try row.int64(.seq))"))
    }
}

extension AccountFlag: StoredRecord {
    enum Column: String, TableColumn {
        case accountId = "account_id", flag, orderId = "order_id", detail, why, at
    }

    init(_ row: Columns<Column>) throws {
        let accountId = try row.string(.accountId)
        let flag = try row.value(.flag, as: AccountFlagKind.self)
        let orderId = try row.optionalString(.orderId)
        let detail = try row.string(.detail)
        let at = try row.int64(.at)
        let why = try Why(stored: try row.optionalString(.why), words: nil, of: "the flag on account \(accountId)")
        self.init(accountId: accountId, flag: flag, orderId: orderId, detail: detail, why: why, at: at)
    }
}
