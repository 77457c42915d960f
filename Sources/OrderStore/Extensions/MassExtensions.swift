import Foundation
import OrderDomain
import SQLKit

extension Extensions {
    /// Asks Apple to extend every active subscriber of `productId` by `days` (admins only,
    /// audited), after an outage. Checked first: 1 to 90 days, Apple's reason codes, an
    /// auto-renewable product of the catalogue, and no other such request for the product
    /// in flight (a unique index). Apple answers at once and works for hours; its progress
    /// arrives as RENEWAL_EXTENDED / RENEWAL_EXTENSION notifications and the SUMMARY, or
    /// from ``refreshMass(_:progress:)``.
    public func extendAll(
        productId: String, days: Int, reasonCode: Int, environment: AppleEnvironment = .production, by actor: Operator, reason: String,
        at now: Millis = .now(),
        send: @Sendable (_ productId: String, _ days: Int, _ reasonCode: Int, _ requestId: String, AppleEnvironment) async -> String?
    ) async throws -> MassExtension {
        try store.requireOperator(actor, may: .extendEverySubscriber, reason: reason, minimum: .admin)
        guard (1...ExtensionRule.maxDays).contains(days) else { throw StoreError.invalid(.extensionDays(days, max: ExtensionRule.maxDays)) }
        guard ExtensionRule.reasonCodes.contains(reasonCode) else { throw StoreError.invalid(.extensionReasonCode(reasonCode)) }
        let requestId = UUID().uuidString.lowercased()
        try await store.write(as: actor, now: now) { tx in
            guard let type = try await tx.sql.productTypes()[productId] else { throw StoreError.notFound(kind: .product, id: productId) }
            guard type == .autoRenewable else { throw StoreError.invalid(.extendsAutoRenewablesOnly(productId: productId, type: type)) }
            try await tx.sql.raw(
                """
                UPDATE mass_extensions SET outcome = 'abandoned'
                WHERE product_id = \(bind: productId) AND outcome = 'sending' AND claimed_at < \(bind: now - OrderStore.appleActionClaimLifetime)
                """
            ).run()
            let claimed = try await tx.sql.row(
                """
                INSERT INTO mass_extensions (request_id, product_id, days, reason_code, environment, operator, reason, claimed_at, outcome)
                VALUES (\(bind: requestId), \(bind: productId), \(bind: days), \(bind: reasonCode), \(bind: environment.rawValue), \(bind: actor.name),
                        \(bind: reason), \(bind: now), 'sending')
                ON CONFLICT (product_id) WHERE outcome = 'sending' DO NOTHING RETURNING request_id
                """)
            guard claimed != nil else {
                throw StoreError.invalid(.massExtensionUnderWay(productId: productId))
            }
        }
        let app = try await store.app(ofProduct: productId)
        let refusal = await store.asApp(app) { await send(productId, days, reasonCode, requestId, environment) }
        return try await store.write(as: actor, now: .now()) { tx in
            try await tx.sql.raw(
                """
                UPDATE mass_extensions SET outcome = \(bind: (refusal == nil ? AppleActionOutcome.sent : .failed).rawValue),
                  answered_at = \(bind: tx.now), apple_error = \(bind: refusal)
                WHERE request_id = \(bind: requestId)
                """
            ).run()
            tx.audit(
                refusal == nil ? .subscriptionExtendAll : .subscriptionExtendAllRefused, target: .product(productId), reason: reason,
                .extended(days: days, reasonCode: reasonCode, requestId: requestId, environment: environment, newEnd: nil, appleSaid: refusal))
            return try await tx.massExtension(requestId)
        }
    }

    /// Extensions for all subscribers, newest first.
    public func mass(limit: Int = 50) async throws -> [MassExtension] {
        try await store.read { sql in
            try await sql.rows(
                "SELECT \(unsafeRaw: MassExtension.Column.list) FROM mass_extensions ORDER BY claimed_at DESC, request_id LIMIT \(literal: limit)"
            )
            .map(MassExtension.init(row:))
        }
    }

    /// Asks Apple how far an extension still in progress got (`progress` calls Get Status
    /// of Subscription Renewal Date Extensions) and keeps what it says.
    public func refreshMass(
        _ requestId: String,
        progress: @Sendable (_ productId: String, _ requestId: String, AppleEnvironment) async -> MassExtensionProgress
    ) async throws -> (MassExtension, refusal: String?) {
        let known = try await store.read { sql in try await MassExtension.find(requestId, sql) }
        guard known.inProgress else { return (known, nil) }
        let app = try await store.app(ofProduct: known.productId)
        let answer = await store.asApp(app) { await progress(known.productId, requestId, known.environment) }
        if answer.refusal == nil {
            try await store.write(as: .system) { tx in
                _ = try await tx.recordMassExtensionProgress(
                    requestId: requestId, completeAt: answer.completeAt, succeeded: answer.succeeded, failed: answer.failed)
            }
        }
        return (try await store.read { sql in try await MassExtension.find(requestId, sql) }, answer.refusal)
    }

    /// The subscriptions Apple could not extend (RENEWAL_EXTENSION/FAILURE) since `since`,
    /// for `productId`: original transaction ids, oldest first.
    public func massFailures(productId: String, since: Millis, limit: Int = 200) async throws -> [NotificationRecord] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: NotificationRecord.Column.list), signed_date FROM notifications
                WHERE type = 'RENEWAL_EXTENSION' AND subtype = 'FAILURE' AND rejection IS NULL AND signed_date >= \(bind: since)
                ORDER BY signed_date, id LIMIT \(literal: limit)
                """
            ).map(NotificationRecord.init(row:)).filter { $0.facts.transaction?.productId == productId }
        }
    }
}

extension WriteTransaction {
    func massExtension(_ requestId: String) async throws -> MassExtension { try await MassExtension.find(requestId, sql) }

    /// Keeps Apple's progress on a request iapdesk made; false when it made none by that id.
    func recordMassExtensionProgress(requestId: String, completeAt: Millis?, succeeded: Int64?, failed: Int64?) async throws -> Bool {
        try await sql.row(
            """
            UPDATE mass_extensions SET complete_at = COALESCE(\(bind: completeAt), complete_at), succeeded = COALESCE(\(bind: succeeded), succeeded),
              failed = COALESCE(\(bind: failed), failed)
            WHERE request_id = \(bind: requestId) RETURNING request_id
            """) != nil
    }
}

extension MassExtension: StoredRecord {
    enum Column: String, TableColumn {
        case requestId = "request_id", productId = "product_id", days, reasonCode = "reason_code", environment, `operator`, reason,
            claimedAt = "claimed_at", outcome, answeredAt = "answered_at", appleError = "apple_error", completeAt = "complete_at", succeeded, failed
    }

    static func find(_ requestId: String, _ sql: any SQLDatabase) async throws -> MassExtension {
        guard let row = try await sql.row("SELECT \(unsafeRaw: MassExtension.Column.list) FROM mass_extensions WHERE request_id = \(bind: requestId)") else {
            throw StoreError.notFound(kind: .massExtension, id: requestId)
        }
        return try MassExtension(row: row)
    }

    init(_ row: Columns<Column>) throws {
        let requestId = try row.string(.requestId)
        let productId = try row.string(.productId)
        let days = try row.int(.days)
        let reasonCode = try row.int(.reasonCode)
        let environment = AppleEnvironment(rawValue: try row.string(.environment)) ?? .production
        let operatorName = try row.string(.operator)
        let reason = try row.string(.reason)
        let claimedAt = try row.int64(.claimedAt)
        let outcome = try row.value(.outcome, as: AppleActionOutcome.self)
        let answeredAt = try row.optionalInt64(.answeredAt)
        let appleError = try row.optionalString(.appleError)
        let completeAt = try row.optionalInt64(.completeAt)
        let succeeded = try row.optionalInt64(.succeeded)
        let failed = try row.optionalInt64(.failed)
        self.init(
            requestId: requestId, productId: productId, days: days, reasonCode: reasonCode, environment: environment, operatorName: operatorName,
            reason: reason, claimedAt: claimedAt, outcome: outcome, answeredAt: answeredAt, appleError: appleError, completeAt: completeAt,
            succeeded: succeeded, failed: failed)
    }
}
