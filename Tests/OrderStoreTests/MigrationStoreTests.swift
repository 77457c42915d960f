import Foundation
import OrderDomain
import SQLKit
import TestSupport
import Testing

@testable import OrderStore

/// Stores made by an earlier iapdesk open in place: each migration is tried on a store that
/// has data, not only on an empty one.
@Suite("Store: migrating a store in place")
struct MigrationStoreTests {
    /// Undoes the migration that keeps reasons as codes and facts: orders and attempts keep
    /// words (the words an iapdesk of then wrote for the one reason the tests give, the code
    /// for others), R8's history and the audit log no decisions (and the one after it, which
    /// keeps as facts what the entries before migration 23 said of their grants).
    static let reasonParticularsUndone = [
        "DROP TABLE legacy_seed_grants", "DROP TABLE legacy_grant_audits",
        "UPDATE orders SET last_error = 'verifyReceipt rejects our shared secret (21004)' WHERE reason_code = 'apple.shared_secret_rejected'",
        "UPDATE orders SET last_error = reason_code WHERE reason_details IS NOT NULL AND last_error IS NULL",
        "DROP INDEX orders_waiting_by_reason",
        "CREATE INDEX orders_waiting_by_reason ON orders (reason_code, order_id, state_changed_at, last_error) WHERE needs_operator = 1",
        "ALTER TABLE orders DROP COLUMN reason_details",
        "UPDATE verification_attempts SET reason = why WHERE why IS NOT NULL", "ALTER TABLE verification_attempts DROP COLUMN why",
        "ALTER TABLE grants DROP COLUMN revoke_why", "ALTER TABLE audit_log DROP COLUMN why", "ALTER TABLE ownership_events DROP COLUMN decision",
        "UPDATE account_flags SET detail = why WHERE why IS NOT NULL", "ALTER TABLE account_flags DROP COLUMN why",
    ]

    /// Undoes the migration that serves apps across stores: apps keyed by their id alone, no
    /// game; subscriptions without their store (and the one after it).
    static let appsAcrossStoresUndone =
        reasonParticularsUndone + [
            "ALTER TABLE subscriptions DROP COLUMN marketplace",
            """
            CREATE TABLE apps_v29 (bundle_id TEXT PRIMARY KEY, name TEXT, apple_app_id BIGINT, added_at BIGINT NOT NULL,
              marketplace TEXT NOT NULL DEFAULT 'app_store')
            """,
            "INSERT INTO apps_v29 SELECT bundle_id, name, apple_app_id, added_at, marketplace FROM apps WHERE marketplace = 'app_store'",
            "DROP TABLE apps", "ALTER TABLE apps_v29 RENAME TO apps",
        ]

    /// Undoes the migration that keeps a notification's store (and the one after it).
    static let notificationStoreUndone =
        appsAcrossStoresUndone + [
            "DROP INDEX notifications_by_apply_key", "DROP INDEX notifications_by_marketplace", "ALTER TABLE notifications DROP COLUMN marketplace",
        ]

    /// Undoes the migration that keeps a submission's kind (and the one after it).
    static let submissionKindUndone = notificationStoreUndone + ["ALTER TABLE receipt_submissions DROP COLUMN kind"]

    /// Undoes the migration that gives reasons codes: orders keep only their words.
    static let reasonCodesUndone = [
        "DROP INDEX orders_waiting_by_reason", "ALTER TABLE orders DROP COLUMN reason_code",
        "CREATE INDEX orders_waiting_for_operator ON orders (last_error, order_id, state_changed_at) WHERE needs_operator = 1",
    ]

    /// Undoes the migration that brings Google Play beside the App Store.
    static let googlePlayUndone =
        submissionKindUndone + reasonCodesUndone + [
            // The list by store (the migration after) keys the column dropped below.
            "DROP INDEX orders_by_marketplace", "DROP INDEX orders_by_marketplace_state",
            "DROP INDEX transactions_by_purchase_token", "DROP TABLE play_purchases", "DROP INDEX receipt_submissions_by_purchase_token",
            "ALTER TABLE receipt_submissions DROP COLUMN purchase_token",
            "ALTER TABLE transactions DROP COLUMN purchase_token", "ALTER TABLE apps DROP COLUMN marketplace", "ALTER TABLE orders DROP COLUMN marketplace",
        ]

    /// Undoes the migration that keeps Apple's 2026 facts (offers, commitment plans,
    /// Finish Transaction, a subscription's renewal facts).
    static let appleFactsUndone =
        [
            "app_account_token", "offer_type", "offer_identifier", "billing_plan", "commitment_payment", "commitment_payments", "commitment_ends_at",
            "finished_at",
        ].map { "ALTER TABLE transactions DROP COLUMN \($0)" }
        + [
            "renews_to", "grace_until", "billing_retry", "price_increase", "billing_plan", "commitment_renews", "commitment_renews_at",
            "commitment_renews_to", "win_back_offers",
        ].map { "ALTER TABLE subscriptions DROP COLUMN \($0)" }

    static let auditBeforeIssue30 = [
        "ALTER TABLE audit_log DROP COLUMN grants_from",
        "ALTER TABLE audit_log DROP COLUMN grants_to",
        "ALTER TABLE audit_head DROP COLUMN legacy_grants_through",
    ]

    /// Undoes migrations 11 and later as exactly as SQL can: the schema versions up to 10
    /// left.
    static func schemaUpToVersion10(_ d: Dialect) -> [String] {
        var statements =
            googlePlayUndone + appleFactsUndone + auditBeforeIssue30 + [
                "ALTER TABLE products DROP COLUMN gives",
                "DROP INDEX orders_by_app",
                "DROP INDEX orders_by_app_state",
                "DROP INDEX products_by_app",
                "ALTER TABLE orders DROP COLUMN app",
                "ALTER TABLE products DROP COLUMN app",
                "ALTER TABLE notifications DROP COLUMN app",
                "DROP TABLE apps",
                "ALTER TABLE transactions DROP COLUMN storefront",
                "DROP TABLE apple_order_ids",
                "ALTER TABLE products DROP COLUMN subscription_group",
                "ALTER TABLE products DROP COLUMN group_level",
                "ALTER TABLE products DROP COLUMN duration_days",
                "ALTER TABLE products DROP COLUMN retired_at",
                "DROP TABLE mass_extensions",
                "DROP INDEX grants_by_time",
                "DROP INDEX transactions_by_cancellation",
                "DROP TABLE notes",
                "DROP TABLE consumption_reports",
                "DROP TABLE subscription_extensions",
                "DROP TABLE refund_answers",
                "DROP INDEX notifications_refund_requests",
                "DROP INDEX transactions_by_app_transaction",
                "ALTER TABLE transactions DROP COLUMN refunded_share",
                "ALTER TABLE transactions DROP COLUMN share_taken_back",
                "ALTER TABLE transactions DROP COLUMN app_transaction_id",
            ]
        if d == .postgres {
            statements.append("ALTER TABLE subscriptions ALTER COLUMN owner_account SET NOT NULL")
        } else {
            statements += [
                """
                CREATE TABLE subscriptions_v10 (original_transaction_id TEXT PRIMARY KEY, owner_account TEXT NOT NULL,
                  product_id TEXT NOT NULL, status TEXT NOT NULL, auto_renew BIGINT NOT NULL, expires_at BIGINT,
                  owner_since BIGINT NOT NULL, decided_by TEXT NOT NULL, updated_at BIGINT NOT NULL, facts_as_of BIGINT, facts_source TEXT)
                """,
                "INSERT INTO subscriptions_v10 SELECT * FROM subscriptions",
                "DROP TABLE subscriptions",
                "ALTER TABLE subscriptions_v10 RENAME TO subscriptions",
                "CREATE INDEX subscriptions_by_owner ON subscriptions (owner_account, original_transaction_id)",
                "CREATE INDEX subscriptions_by_expiry ON subscriptions (expires_at, original_transaction_id) WHERE expires_at IS NOT NULL",
            ]
        }
        return statements + ["DELETE FROM schema_migrations WHERE version >= 11"]
    }

    /// A store written by an iapdesk of before `undone` (what `before` leaves in it, then
    /// those migrations' statements undone and their versions forgotten), opened again by
    /// this one for `after`. Each store is closed whatever happens.
    static func migrated(
        _ backend: Backend, undoing undone: [String], fromVersion version: Int, before: (OrderStore) async throws -> Void,
        after: (OrderStore) async throws -> Void
    ) async throws {
        let location = try await backend.freshLocation()
        defer { Backend.cleanUp(location) }
        for step in 0..<2 {
            let store = try await OrderStore.open(location, settings: .test)
            do {
                if step == 0 {
                    try await before(store)
                    for statement in undone + ["DELETE FROM schema_migrations WHERE version >= \(version)"] {
                        try await store.db.sql.raw(SQLQueryString(statement)).run()
                    }
                } else {
                    try await after(store)
                }
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    @Test("PostgreSQL: the long texts are compressed with LZ4 where the server has it, pglz where not; what they hold reads back whole", .needsPostgres)
    func longTextsCompressedWithLZ4() async throws {
        try await withStore(.postgres) { store in
            let hasLZ4 = try await store.read { sql in (try? await sql.raw("SET default_toast_compression = 'lz4'").run()) != nil }
            let methods = try await store.read { sql in
                try await sql.rows(
                    """
                    SELECT attname, attcompression::text AS method FROM pg_attribute
                    WHERE attrelid = 'notifications'::regclass AND attname IN ('raw', 'facts') ORDER BY attname
                    """
                ).map { try $0.string("method") }
            }
            #expect(methods == (hasLZ4 ? ["l", "l"] : ["", ""]))
            // Compressible and long enough to be compressed: it comes back byte for byte.
            let raw = String(repeating: "eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlF", count: 400)
            let facts = NotificationFacts(uuid: "u-lz4", type: "TEST", signedDate: t0, environment: "Production")
            let stored = try await store.notifications.receive(all: [
                IncomingNotification(endpoint: .production, via: .receiver, raw: raw, rejection: nil, facts: facts)
            ])
            guard case .stored(let id)? = try? stored.first?.get() else {
                Issue.record("\(stored)")
                return
            }
            #expect(try await store.notifications.record(id: id).raw == raw)
        }
    }

    @Test(
        "PostgreSQL in an ICU en-US database: every text column compares by its bytes, and a prefix search and an any-id lookup each read an index",
        .needsPostgres)
    func textComparesBytewise() async throws {
        try await withStore(.postgres) { store in
            let locale = try await store.read { sql in
                try await sql.row("SELECT datlocprovider::text AS p FROM pg_database WHERE datname = current_database()")?.string("p")
            }
            #expect(locale == "i" || !Machine.isCI, "the tests' databases have an ICU collation, where order differs from the bytes")
            let localeColumns = try await store.read { sql in
                try await sql.rows(
                    """
                    SELECT c.relname || '.' || a.attname AS col FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
                      AND a.atttypid = 'text'::regtype AND a.attcollation <> 'pg_catalog."C"'::regcollation
                    """
                ).map { try $0.string("col") }
            }
            #expect(localeColumns.isEmpty, "a text column in the locale's collation (add COLLATE \"C\" where it is made)")
            for n in 0..<30 {
                try await store.orders.place(
                    orderId: "ord-\(n)", accountId: n.isMultiple(of: 2) ? "A2-\(n)" : "a1-\(n)", productId: "coins_60", at: t0 + Millis(n))
            }
            // In the locale's order "A2-…" would sort among "a1-…"; by the bytes it is before them.
            let found = try await store.orders.search("a", kind: .account).map(\.accountId)
            #expect(found.count == 15 && found.allSatisfy { $0.hasPrefix("a1-") } && found.prefix(3) == ["a1-1", "a1-11", "a1-13"], "\(found)")
            // The two probes the console makes most can each be served by an index (with scans
            // priced out, a probe no index can serve still plans a scan).
            let probes = [
                "SELECT order_id FROM orders WHERE account_id >= 'a1' AND account_id < 'a1\u{10FFFF}' ORDER BY account_id LIMIT 5",
                "SELECT order_id FROM orders WHERE order_id = 'ord-7'",
            ]
            let plans = try await store.read { sql in
                try await sql.raw("SET enable_seqscan = off").run()
                var plans: [String] = []
                for probe in probes {
                    plans.append(try await sql.rows(SQLQueryString("EXPLAIN " + probe)).map { try $0.string("QUERY PLAN") }.joined(separator: "\n"))
                }
                try await sql.raw("RESET enable_seqscan").run()
                return plans
            }
            for (probe, plan) in zip(probes, plans) { #expect(plan.contains("Index") && !plan.contains("Seq Scan"), "\(probe): \(plan)") }
        }
    }

    @Test("PostgreSQL: a studio's own table in the store's schema keeps its collation through the migrations", .needsPostgres)
    func studioTablesLeftAlone() async throws {
        let url = try await PostgresServer.freshDatabaseURL()
        try await PostgresServer.psql("CREATE TABLE studio_tickets (ticket TEXT NOT NULL)", url: url)
        let store = try await OrderStore.open(.postgres(url: url), settings: .test)
        func collation(_ table: String, _ column: String) async throws -> String? {
            try await store.read { sql in
                try await sql.row(
                    "SELECT collname FROM pg_attribute a JOIN pg_collation c ON c.oid = a.attcollation WHERE a.attrelid = \(bind: table)::regclass AND a.attname = \(bind: column)"
                )?.string("collname")
            }
        }
        let studio = try await collation("studio_tickets", "ticket")
        let orders = try await collation("orders", "order_id")
        await store.close()
        #expect(studio == "default", "the studio's column is as it was made")
        #expect(orders == "C")
    }

    @Test(
        "A store from before reason codes migrates in place: its waiting orders keep their words, read as unclassified and alert under one group; new reasons have codes",
        arguments: Backend.all)
    func reasonCodesArrive(backend: Backend) async throws {
        try await Self.migrated(backend, undoing: Self.submissionKindUndone + Self.reasonCodesUndone, fromVersion: 27) { old in
            try await TestCatalogue.install(in: old)
            let submission = try await old.paidOrder("w-1", account: "a1")
            _ = try await old.apple.apply(orderId: "w-1", submissionId: submission, report: statusReport(21004), at: t0 + 3000)
        } after: { store in
            let waiting = try await store.orders.detail("w-1").order
            #expect(waiting.reason == .unclassified && waiting.lastError?.contains("21004") == true, "\(waiting)")
            let alerts = try await store.reports.operatorAlerts()
            #expect(alerts.count == 1 && alerts.first?.reason == .unclassified && alerts.first?.example?.words?.contains("21004") == true, "\(alerts)")
            let submission = try await store.paidOrder("w-2", account: "a2")
            _ = try await store.apple.apply(orderId: "w-2", submissionId: submission, report: statusReport(21004), at: t0 + 4000)
            #expect(try await store.reports.operatorAlerts().map(\.reason).sorted { $0.code < $1.code } == [.sharedSecretRejected, .unclassified])
            #expect(try await Migrations.restoreMissingIndexes(on: store.db) == [])
        }
    }

    @Test(
        "A store from before notifications kept their store migrates in place: Google's pushes and voided purchases are told from Apple's once, by the keys only Google's had; each store's are listed apart",
        arguments: Backend.all)
    func notificationStoresArrive(backend: Backend) async throws {
        func incoming(_ uuid: String, token: String? = nil, marketplace: Marketplace) -> IncomingNotification {
            var facts = NotificationFacts(
                uuid: uuid, type: token == nil ? "REFUND_DECLINED" : "ONE_TIME_PRODUCT_PURCHASED", signedDate: t0, environment: "Production")
            facts.purchaseToken = token
            return IncomingNotification(endpoint: .production, via: .receiver, raw: "raw", rejection: nil, facts: facts, marketplace: marketplace)
        }
        try await Self.migrated(backend, undoing: Self.notificationStoreUndone, fromVersion: 29) { old in
            _ = try await old.notifications.receive(incoming("apple-1", marketplace: .appStore), at: t0)
            _ = try await old.notifications.receive(incoming("play:41", token: "token-0123456789.abc", marketplace: .googlePlay), at: t0 + 1)
            _ = try await old.notifications.receive(incoming("play-voided:GPA.1:5", marketplace: .googlePlay), at: t0 + 2)
        } after: { store in
            #expect(try await store.notifications.list(store: .googlePlay).compactMap(\.facts.uuid) == ["play-voided:GPA.1:5", "play:41"])
            #expect(try await store.notifications.list(store: .appStore).compactMap(\.facts.uuid) == ["apple-1"])
            _ = try await store.notifications.receive(incoming("play:42", token: "token-9876543210.abc", marketplace: .googlePlay), at: t0 + 3)
            #expect(try await store.notifications.list(store: .googlePlay, limit: 1).first?.marketplace == .googlePlay, "kept as received")
            #expect(try await Migrations.restoreMissingIndexes(on: store.db) == [])
        }
    }

    @Test(
        "A store from before apps across stores migrates in place: each app is a game of its own, a subscription with a Google purchase in its chain is Google's, the others Apple's",
        arguments: Backend.all)
    func appsAcrossStoresArrive(backend: Backend) async throws {
        func subscription(_ otid: String, token: String?) -> [String] {
            [
                """
                INSERT INTO transactions (transaction_id, original_transaction_id, product_id, quantity, purchase_date, first_seen_at, purchase_token)
                VALUES ('\(otid)', '\(otid)', 'vip_monthly', 1, 1, 1, \(token.map { "'\($0)'" } ?? "NULL"))
                """,
                """
                INSERT INTO subscriptions (original_transaction_id, owner_account, product_id, status, auto_renew, owner_since, decided_by, updated_at)
                VALUES ('\(otid)', 'p-\(otid)', 'vip_monthly', 'active', 1, 1, 'rule', 1)
                """,
            ]
        }
        try await Self.migrated(backend, undoing: Self.appsAcrossStoresUndone, fromVersion: 30) { old in
            for statement in subscription("1000000001", token: nil) + subscription("GPA.3300-0000-0000-00001", token: "token-0123456789.abc") {
                try await old.db.sql.raw(SQLQueryString(statement)).run()
            }
        } after: { store in
            let apps = try await store.catalogue.apps().map(\.app)
            #expect(apps == [StoreApp(bundleId: "com.example.game", addedAt: 0)], "each app a game of its own")
            let apple = try await store.subscriptions.detail("1000000001").subscription
            let google = try await store.subscriptions.detail("GPA.3300-0000-0000-00001").subscription
            #expect(apple?.marketplace == .appStore && google?.marketplace == .googlePlay)
            #expect(try await Migrations.restoreMissingIndexes(on: store.db) == [])
        }
    }

    @Test(
        "A store from before submission kinds migrates in place: its app receipts, signed transactions and Google Play purchases are told apart once, then verified as what they are",
        arguments: Backend.all)
    func submissionKindsArrive(backend: Backend) async throws {
        let play = PlaySubmission(packageName: "com.example.game", purchaseToken: "token-0123456789.abc")
        try await Self.migrated(backend, undoing: Self.submissionKindUndone, fromVersion: 28) { old in
            try await TestCatalogue.install(in: old)
            for id in ["k-receipt", "k-signed", "k-play"] { try await old.orders.place(orderId: id, accountId: "a-\(id)", productId: "coins_60") }
            try await old.orders.submit(orderId: "k-receipt", evidence: .appReceipt("TUlJQ0FBQUE="))
            try await old.orders.submit(orderId: "k-signed", evidence: .signedTransaction("eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln"))
            try await old.orders.submit(orderId: "k-play", evidence: .googlePlay(play))
        } after: { store in
            var kinds: [String: EvidenceKind] = [:]
            for id in ["k-receipt", "k-signed", "k-play"] { kinds[id] = try await store.orders.detail(id).submissions.first?.kind }
            #expect(kinds == ["k-receipt": .appReceipt, "k-signed": .signedTransaction, "k-play": .googlePlay])
            let evidence = try await store.orders.detail("k-play").submissions.first.map { try PurchaseEvidence(kind: $0.kind, storedText: $0.receiptData) }
            #expect(evidence == .googlePlay(play))
        }
    }

    @Test(
        "A store at schema version 10 migrates in place: its subscriptions keep their owners, one may now have none, and every index is there",
        arguments: Backend.all)
    func issue29(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        defer { Backend.cleanUp(location) }
        let old = try await OrderStore.open(location, settings: .test)
        try await old.db.sql.raw(
            """
            INSERT INTO subscriptions (original_transaction_id, owner_account, product_id, status, auto_renew, expires_at, owner_since,
              decided_by, updated_at, facts_as_of, facts_source)
            VALUES ('1000000001', 'acct-a', 'vip_monthly', 'active', 1, 1790000000000, 1, 'rule', 1, 1, 'notification')
            """
        ).run()
        try await old.catalogue.upsert(Product(productId: "coins_60", type: .consumable, displayName: "60 coins", priceMinor: 600, currency: "CNY"))
        try await old.orders.place(orderId: "m-1", accountId: "acct-a", productId: "coins_60")
        for statement in Self.schemaUpToVersion10(old.dialect) { try await old.db.sql.raw(SQLQueryString(statement)).run() }
        await old.close()

        let store = try await OrderStore.open(location, settings: .test)
        #expect(try await store.subscriptions.detail("1000000001").subscription?.ownerAccount == "acct-a", "an owner survives the copy")
        // A store of one app serves it still, and what it holds is that app's.
        #expect(try await store.catalogue.apps().map(\.app.bundleId) == [store.settings.bundleId])
        #expect(try await store.catalogue.product("coins_60")?.app == store.settings.bundleId)
        #expect(try await store.orders.find("m-1")?.app == store.settings.bundleId)
        #expect(try await store.orders.page(OrderFilter(app: store.settings.bundleId)).items.map(\.orderId) == ["m-1"])
        try await store.db.sql.raw(
            """
            INSERT INTO subscriptions (original_transaction_id, owner_account, product_id, status, auto_renew, owner_since, decided_by, updated_at)
            VALUES ('1000000002', NULL, 'vip_monthly', 'active', 1, 1, 'apple', 1)
            """
        ).run()
        #expect(try await store.subscriptions.detail("1000000002").subscription?.ownerAccount == nil)
        #expect(try await Migrations.restoreMissingIndexes(on: store.db) == [], "the copied table has its indexes")
        let versions = try await store.db.sql.rows("SELECT version FROM schema_migrations").map { try $0.int("version") }
        #expect(versions.max() == Migrations.all(store.dialect).count)
        await store.close()
    }

    @Test(
        "A store from before migration 23 keeps its verdict on grants: what its entries' words said is kept as facts once, one written by hand is still found, and grants after the migration are named by id",
        arguments: Backend.all)
    func grantsNamedInWordsBeforeMigration23(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        defer { Backend.cleanUp(location) }
        let old = try await OrderStore.open(location, settings: .test)
        do {
            for statement in Self.googlePlayUndone + Self.appleFactsUndone + Self.auditBeforeIssue30 + [
                "DELETE FROM schema_migrations WHERE version >= 23"
            ] {
                try await old.db.sql.raw(SQLQueryString(statement)).run()
            }
            // What an iapdesk of then wrote: a delivery and its entry at one instant, a seed whose
            // entry names its grants in words, and a grant someone wrote by hand.
            try await Self.grant(old, "o1", at: t0)
            try await Self.legacyEntry(old, at: t0, target: "order:o1", action: "verify.valid", detail: "verified → delivered")
            try await Self.grant(old, "s1", at: t0 + 10)
            try await Self.grant(old, "s2", at: t0 + 10)
            try await Self.legacyEntry(old, at: t0 + 10, target: AuditTarget.seed.description, action: "seed", detail: "2 synthetic orders; grants #2–#3")
            try await Self.grant(old, "o2", at: t0 + 20)
            // Words the migration cannot read as a range vouch for nothing and stop nothing.
            try await Self.legacyEntry(old, at: t0 + 30, target: AuditTarget.seed.description, action: "seed", detail: "0 synthetic orders; grants #x–#")
        } catch {
            // A store dropped unclosed is a crash of the whole test process, not this test's failure.
            await old.close()
            throw error
        }
        await old.close()

        let store = try await OrderStore.open(location, settings: .test)
        do {
            #expect(try await store.audit.verify().isIntactForTest)
            let legacy = try await store.audit.unauditedDeliveries()
            #expect(legacy == [UnauditedDelivery(orderId: "o2", grantedAt: t0 + 20, count: 1)], "\(legacy)")
            // Words in the old form appended now (chained, at the hand-written grant's instant)
            // vouch for nothing: what the old entries said was kept when the store migrated.
            try await Self.legacyEntry(store, at: t0 + 20, target: "order:o2", action: "verify.valid", detail: "verified → delivered")
            #expect(try await store.audit.unauditedDeliveries() == legacy)
            try await TestCatalogue.install(in: store)
            // After the migration a delivery's entry names its grant, and a hand-written one is found by its id alone.
            let submission = try await store.paidOrder("o3", account: "a3")
            _ = try await store.apple.apply(orderId: "o3", submissionId: submission, report: validReport([tx("930", at: t0 + 100)]), at: t0 + 3000)
            try await Self.grant(store, "o4", at: t0 + 4000)
            #expect(
                try await store.audit.unauditedDeliveries() == [
                    UnauditedDelivery(orderId: "o2", grantedAt: t0 + 20, count: 1), UnauditedDelivery(orderId: "o4", grantedAt: t0 + 4000, count: 1),
                ])
            #expect(try await store.audit.unauditedDeliveries(limit: 1).map(\.orderId) == ["o2"])
            #expect(try await store.audit.verify().isIntactForTest)
        } catch {
            Issue.record(error)
        }
        await store.close()
    }

    private static func grant(_ store: OrderStore, _ orderId: String, at: Millis) async throws {
        try await store.db.sql.raw(
            """
            INSERT INTO grants (order_id, account_id, transaction_id, kind, operator, reason, granted_at)
            VALUES (\(bind: orderId), 'acct', NULL, 'automatic', 'system', NULL, \(bind: at))
            """
        ).run()
    }

    /// An audit entry as an iapdesk before migration 23 appended it: chained, no grant columns.
    private static func legacyEntry(_ store: OrderStore, at: Millis, target: String, action: String, detail: String) async throws {
        let head = try await AuditHead.read(store.db.sql)
        let seq = head.seq + 1
        let hash = AuditChain.hash(
            previous: head.hash, seq: seq, at: at, actor: "system", role: "rule", action: action, target: target, reason: nil, detail: detail, grants: nil)
        try await store.db.sql.raw(
            """
            INSERT INTO audit_log (seq, at, actor, role, action, target, reason, detail, prev_hash, hash)
            VALUES (\(bind: seq), \(bind: at), 'system', 'rule', \(bind: action), \(bind: target), NULL, \(bind: detail), \(bind: head.hash), \(bind: hash))
            """
        ).run()
        try await store.db.sql.raw("UPDATE audit_head SET seq = \(bind: seq), hash = \(bind: hash) WHERE id = 1").run()
    }
}
