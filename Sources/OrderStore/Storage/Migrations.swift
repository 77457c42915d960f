import OrderDomain
import SQLKit

/// Versioned schema migrations, run on open. Each migration is a list of statements
/// applied in one transaction; `schema_migrations` records what was applied.
///
/// Every console query has an index here: lists page by
/// `(created_at, order_id)` keys, never OFFSET.
enum Migrations {
    static func all(_ dialect: Dialect) -> [[String]] {
        [
            v1(dialect), v2(dialect), v3, v4(dialect), v5(dialect), v6, v7(dialect), v8, v9, v10, v11(dialect), v12(dialect), v13(dialect), v14(dialect),
            v15(dialect), v16, v17, v18, v19, v20, v21, v22, v23, v24, v25(dialect), v26, v27, v28, v29, v30, v31, v32(dialect), v33(dialect),
            v34(dialect),
        ]
    }

    /// Applies what is missing; true when something was.
    @discardableResult
    static func run(on db: Database, ownsSchema: Bool) async throws -> Bool {
        if db.readOnly || !ownsSchema {
            // No schema can be changed by this login: it must be current already.
            let applied = try await db.unboundedSQL.row("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations")?.int("v") ?? 0
            guard applied == all(db.dialect).count else {
                throw StoreSetupError.olderSchema(found: applied, known: all(db.dialect).count)
            }
            return false
        }
        try await db.unboundedSQL.raw("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)").run()
        let applied = try await db.unboundedSQL.row("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations")?.int("v") ?? 0
        let migrations = all(db.dialect)
        if applied > migrations.count { throw StoreSetupError.newerSchema(found: applied, known: migrations.count) }
        for (index, statements) in migrations.enumerated() where index + 1 > applied {
            let version = index + 1
            try await db.lock.run {
                try await db.unboundedSQL.writeTransaction(db.dialect) {
                    // Another process may have migrated while we waited for the write lock.
                    let now = try await db.unboundedSQL.row("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations")?.int("v") ?? 0
                    if now < version {
                        for statement in statements { try await db.unboundedSQL.raw(SQLQueryString(statement)).run() }
                        try await db.unboundedSQL.raw("INSERT INTO schema_migrations (version, applied_at) VALUES (\(bind: version), \(bind: Millis.now()))")
                            .run()
                    }
                }
            }
        }
        return applied < migrations.count
    }

    /// Builds again any index the migrations made that is gone: a seed killed by an older
    /// iapdesk, while its indexes were dropped for the load, left stores that looked healthy
    /// and were slow. Returns the names rebuilt (none on a healthy store: one catalogue read).
    static func restoreMissingIndexes(on db: Database) async throws -> [String] {
        if db.readOnly { return [] }
        // The indexes the migrations leave, in order: a later migration may drop one.
        var definitions: [(name: String, sql: String)] = []
        for statement in all(db.dialect).joined() {
            let words = statement.split(separator: " ", maxSplits: 4)
            if words.count > 2, words[0] == "CREATE", words[1] == "INDEX" { definitions.append((String(words[2]), statement)) }
            if words.count > 3, words[0] == "CREATE", words[1] == "UNIQUE", words[2] == "INDEX" { definitions.append((String(words[3]), statement)) }
            if words.count > 2, words[0] == "DROP", words[1] == "INDEX" {
                let name = words[2] == "IF" && words.count > 4 ? words[4] : words[2]
                definitions.removeAll { $0.name == name }
            }
        }
        let present = Set(try await db.lock.run { try await db.unboundedSQL.indexNames(db.dialect) })
        let missing = definitions.filter { !present.contains($0.name) }
        guard !missing.isEmpty else { return [] }
        try await db.lock.run {
            try await db.unboundedSQL.writeTransaction(db.dialect) {
                for index in missing {
                    try await db.unboundedSQL.raw(
                        SQLQueryString(index.sql.replacingOccurrences(of: "INDEX \(index.name) ", with: "INDEX IF NOT EXISTS \(index.name) "))
                    )
                    .run()
                }
            }
        }
        return missing.map(\.name)
    }

    /// PostgreSQL: every text column compares by its bytes (`COLLATE "C"`), as SQLite's do.
    /// Nearly all of them hold ids, states and kinds, never words to sort for a reader, and a
    /// locale's collation costs every index build and probe on them: `strcoll` for each
    /// comparison and no abbreviated keys in a sort. On 1M orders the order id's index built
    /// in 0.41 s instead of 0.55, the account's in 0.64 instead of 1.08 (C.UTF-8; more with
    /// an ICU or en_US locale). The four expression indexes in the bytewise collation that
    /// the prefix search needed (migration 2) are then the plain ones again, and go: four
    /// fewer indexes for every order written. No table is rewritten; each index on a text
    /// column is built again once and the statistics the change drops are gathered again
    /// (24 s on a million orders, under the migration's lock: the Operations article says so
    /// before an upgrade), and LZ4 is set again. Every text column a later migration adds
    /// must say `COLLATE "C"` (a test holds the schema to it).
    private static func v34(_ d: Dialect) -> [String] {
        guard d == .postgres else { return [] }
        // The store's own tables as of this migration, by name: a studio's tables in the same
        // schema are not the store's to change.
        let tables = [
            "account_flags", "apple_order_ids", "apps", "audit_head", "audit_log", "claims", "consumption_reports", "event_attempts", "events",
            "grants", "idempotency_keys", "jobs", "legacy_grant_audits", "legacy_seed_grants", "mass_extensions", "notes", "notifications",
            "operators", "orders", "ownership_events", "play_purchases", "products", "receipt_submissions", "refund_answers", "service_state",
            "state_counts", "store_meta", "subscription_extensions", "subscriptions", "transactions", "verification_attempts",
        ].map { "'\($0)'" }.joined(separator: ", ")
        return [
            """
            DO $$
            DECLARE item record;
            BEGIN
              FOR item IN
                SELECT c.relname AS name, string_agg(format('ALTER COLUMN %I TYPE text COLLATE "C"', a.attname), ', ') AS changes
                FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname = ANY(ARRAY[\(tables)])
                  AND a.attnum > 0 AND NOT a.attisdropped
                  AND a.atttypid = 'text'::regtype
                  AND a.attcollation <> (SELECT oid FROM pg_collation WHERE collname = 'C' AND collnamespace = 'pg_catalog'::regnamespace)
                GROUP BY c.relname
              LOOP
                EXECUTE format('ALTER TABLE %I %s', item.name, item.changes);
              END LOOP;
            END $$
            """,
            longTextsInLZ4,
            "DROP INDEX IF EXISTS orders_order_id_bytes",
            "DROP INDEX IF EXISTS orders_transaction_bytes",
            "DROP INDEX IF EXISTS orders_original_bytes",
            "DROP INDEX IF EXISTS orders_account_bytes",
            // A column's type change drops its statistics: without them the planner chose
            // plans of seconds (an order's subscription detail: 2.7 s on 1M orders).
            "ANALYZE",
        ]
    }

    /// PostgreSQL: the long texts (a notification as it came, a receipt, Apple's answer) are
    /// compressed with LZ4 instead of pglz, where the server has it (PostgreSQL 14 and later,
    /// built with LZ4, as Debian's and the official images are). pglz was an eighth of
    /// PostgreSQL's work acknowledging notifications; with LZ4 the acknowledgement p99 came
    /// down about a tenth (Performance article). Rows already stored keep their compression.
    /// A server without LZ4 keeps pglz: nothing else changes.
    private static func v33(_ d: Dialect) -> [String] {
        d == .postgres ? [longTextsInLZ4] : []
    }

    /// The statement of migration 33, run again by 34: a column's type change resets its
    /// compression.
    private static var longTextsInLZ4: String {
        let columns = [
            ("notifications", "raw"), ("notifications", "facts"), ("notifications", "detail"), ("receipt_submissions", "receipt_data"),
            ("verification_attempts", "body"),
        ]
        let alters = columns.map { "EXECUTE 'ALTER TABLE \($0.0) ALTER COLUMN \($0.1) SET COMPRESSION lz4';" }
        return """
            DO $$ BEGIN
              \(alters.joined(separator: "\n  "))
            EXCEPTION WHEN feature_not_supported OR syntax_error OR invalid_parameter_value THEN NULL;
            END $$
            """
    }

    /// Grants written before migration 23 are vouched for by their audit entries' words
    /// alone: a delivery's entry said `… → delivered`, a seed's `; grants #A–#B`. Those words
    /// are read here, once, into facts (how many grants each order's entries at an instant
    /// record; the grant ranges the seeds loaded), so the check for grants no entry records
    /// reads no sentence. No entry is written that way any more.
    private static func v32(_ d: Dialect) -> [String] {
        let order = AuditTarget.order("").description
        let seed = (target: AuditTarget.seed.description, action: AuditAction.seed.rawValue)
        let seedRanges =
            d == .postgres
            ? """
            INSERT INTO legacy_seed_grants (grants_from, grants_to)
            SELECT CAST(substring(detail from '; grants #([0-9]+)–#') AS BIGINT), CAST(substring(detail from '; grants #[0-9]+–#([0-9]+)') AS BIGINT)
            FROM audit_log WHERE target = '\(seed.target)' AND action = '\(seed.action)' AND grants_from IS NULL AND detail ~ '; grants #[0-9]+–#[0-9]+'
            """
            : """
            INSERT INTO legacy_seed_grants (grants_from, grants_to)
            SELECT CAST(substr(rest, 1, instr(rest, '–#') - 1) AS INTEGER), CAST(substr(rest, instr(rest, '–#') + 2) AS INTEGER)
            FROM (SELECT substr(detail, instr(detail, '; grants #') + 10) AS rest FROM audit_log
                  WHERE target = '\(seed.target)' AND action = '\(seed.action)' AND grants_from IS NULL AND instr(detail, '; grants #') > 0) AS seeds
            WHERE instr(rest, '–#') > 1
            """
        return [
            "CREATE TABLE legacy_grant_audits (order_id TEXT NOT NULL, granted_at BIGINT NOT NULL, audited BIGINT NOT NULL, PRIMARY KEY (order_id, granted_at))",
            """
            INSERT INTO legacy_grant_audits (order_id, granted_at, audited)
            SELECT substr(target, \(order.count + 1)), at, COUNT(*) FROM audit_log
            WHERE grants_from IS NULL AND target LIKE '\(order)%' AND detail LIKE '%→ delivered%' GROUP BY target, at
            """,
            "CREATE TABLE legacy_seed_grants (grants_from BIGINT NOT NULL, grants_to BIGINT NOT NULL)",
            seedRanges,
        ]
    }

    /// Decisions kept as facts, said in words only when shown: an order's reason keeps its
    /// particulars as JSON beside its code (`reason_details`); a verification attempt, an
    /// account's flag, a grant the store took back and a rule's audit entry (chained with it)
    /// keep their reason as code and facts (`why`, `revoke_why`); R8's history keeps its
    /// decision (`decision`). Rows from before keep their words (`last_error`, the attempt's
    /// `reason`), which read back as they were. The alerts' index carries both for its example.
    private static let v31 = [
        "ALTER TABLE orders ADD COLUMN reason_details TEXT",
        "ALTER TABLE verification_attempts ADD COLUMN why TEXT",
        "ALTER TABLE grants ADD COLUMN revoke_why TEXT",
        "ALTER TABLE audit_log ADD COLUMN why TEXT",
        "ALTER TABLE ownership_events ADD COLUMN decision TEXT",
        "ALTER TABLE account_flags ADD COLUMN why TEXT",
        "DROP INDEX orders_waiting_by_reason",
        "CREATE INDEX orders_waiting_by_reason ON orders (reason_code, order_id, state_changed_at, reason_details, last_error) WHERE needs_operator = 1",
    ]

    /// One store serves a studio's games on both stores. An app is an App Store bundle id or
    /// a Google Play package name (a studio often gives both the same text, so the two are
    /// kept apart by store), and each belongs to a game: the product line its products are
    /// sold under, named by one of its apps (apps from before are games of their own). A
    /// subscription keeps the store it is sold in, so disputes list and filter by store;
    /// those from before are Google's when a Google purchase is in their chain.
    private static let v30 = [
        """
        CREATE TABLE apps_v30 (bundle_id TEXT NOT NULL, marketplace TEXT NOT NULL, game TEXT NOT NULL, name TEXT, apple_app_id BIGINT,
          added_at BIGINT NOT NULL, PRIMARY KEY (bundle_id, marketplace))
        """,
        "INSERT INTO apps_v30 (bundle_id, marketplace, game, name, apple_app_id, added_at) SELECT bundle_id, marketplace, bundle_id, name, apple_app_id, added_at FROM apps",
        "DROP TABLE apps",
        "ALTER TABLE apps_v30 RENAME TO apps",
        "ALTER TABLE subscriptions ADD COLUMN marketplace TEXT NOT NULL DEFAULT 'app_store'",
        """
        UPDATE subscriptions SET marketplace = 'google_play' WHERE EXISTS (SELECT 1 FROM transactions t
          WHERE t.original_transaction_id = subscriptions.original_transaction_id AND t.purchase_token IS NOT NULL)
        """,
    ]

    /// A notification's store, kept from where it was received (Apple's receiver, Google's
    /// push or its voided sweep), so the desk lists and filters each store's. Those from
    /// before are told apart once, by the keys only Google's were ever stored under
    /// (`play:` and `play-voided:`); a rejected push of before, stored without one, reads as
    /// Apple's. Google's notifications name a purchase token, not a subscription: a
    /// subscription's page finds them by the keys of its chain's tokens.
    private static let v29 = [
        "ALTER TABLE notifications ADD COLUMN marketplace TEXT NOT NULL DEFAULT 'app_store'",
        "UPDATE notifications SET marketplace = 'google_play' WHERE uuid LIKE 'play:%' OR uuid LIKE 'play-voided:%' OR apply_key LIKE 'play:%'",
        "CREATE INDEX notifications_by_marketplace ON notifications (marketplace, id)",
        "CREATE INDEX notifications_by_apply_key ON notifications (apply_key, signed_date, id)",
    ]

    /// A submission's kind, kept from the intake that learned it (which field it read), so
    /// the verifier knows an app receipt from a signed transaction or a Google Play purchase
    /// without reading the text. Submissions from before are told apart once, here, by the
    /// only shapes iapdesk ever stored: Play's `{"google_play"…}` envelope and a JWS's dots
    /// (base64 has none).
    private static let v28 = [
        "ALTER TABLE receipt_submissions ADD COLUMN kind TEXT NOT NULL DEFAULT 'app_receipt'",
        "UPDATE receipt_submissions SET kind = 'google_play' WHERE purchase_token IS NOT NULL",
        "UPDATE receipt_submissions SET kind = 'signed_transaction' WHERE purchase_token IS NULL AND receipt_data LIKE '%.%.%'",
    ]

    /// Reasons as codes: the operator alerts group the orders waiting for a person by their
    /// reason's code (not its words, which name particulars), reading this index alone as the
    /// one it replaces did (the code, the oldest change and one order's words). A bulk
    /// re-verification selects rejected orders by code through the state index. Orders from
    /// before keep their words and read as unclassified.
    private static let v27 = [
        "ALTER TABLE orders ADD COLUMN reason_code TEXT",
        "DROP INDEX orders_waiting_for_operator",
        "CREATE INDEX orders_waiting_by_reason ON orders (reason_code, order_id, state_changed_at, last_error) WHERE needs_operator = 1",
    ]

    /// One desk for both stores: the order list narrowed to one store (`store:` in the
    /// console, `--store` on the command line), alone or with a state, reads one index range
    /// in list order as every other filter does.
    private static let v26 = [
        "CREATE INDEX orders_by_marketplace ON orders (marketplace, created_at, order_id)",
        "CREATE INDEX orders_by_marketplace_state ON orders (marketplace, state, created_at, order_id)",
    ]

    /// Google Play beside the App Store. An order names the store it was paid in; a Play
    /// purchase's orders (`GPA.…`) are transactions, each naming the token it was paid under
    /// (a subscription's renewals `GPA.…..0` share the first order of its chain of tokens as
    /// their original, as Apple's share the original transaction id). What Google reports of a token beyond the rules' keys is kept typed: its
    /// states, the acknowledgement Google's three-day rule asks for and its deadline, the
    /// obfuscated account and profile ids, the token it replaced, test purchases. Real-time
    /// developer notifications share Apple's table (one row per Pub/Sub message id).
    private static func v25(_ d: Dialect) -> [String] {
        [
            "ALTER TABLE orders ADD COLUMN marketplace TEXT NOT NULL DEFAULT 'app_store'",
            "ALTER TABLE apps ADD COLUMN marketplace TEXT NOT NULL DEFAULT 'app_store'",
            "ALTER TABLE transactions ADD COLUMN purchase_token TEXT",
            "ALTER TABLE receipt_submissions ADD COLUMN purchase_token TEXT",
            "CREATE INDEX receipt_submissions_by_purchase_token ON receipt_submissions (purchase_token) WHERE purchase_token IS NOT NULL",
            """
            CREATE TABLE play_purchases (purchase_token TEXT PRIMARY KEY, package_name TEXT NOT NULL, product_id TEXT NOT NULL,
              kind TEXT NOT NULL, order_id TEXT, purchase_state TEXT NOT NULL, acknowledged BIGINT NOT NULL DEFAULT 0, consumed BIGINT NOT NULL DEFAULT 0,
              quantity BIGINT NOT NULL DEFAULT 1, refundable_quantity BIGINT, purchase_time BIGINT, expiry_time BIGINT, subscription_state TEXT,
              auto_renew BIGINT, linked_purchase_token TEXT, root_token TEXT NOT NULL, obfuscated_account_id TEXT, obfuscated_profile_id TEXT,
              region_code TEXT, is_test BIGINT NOT NULL DEFAULT 0, acknowledge_by BIGINT, acknowledged_at BIGINT, consumed_at BIGINT,
              first_seen_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
            """,
            "CREATE INDEX play_purchases_by_order ON play_purchases (order_id) WHERE order_id IS NOT NULL",
            "CREATE INDEX play_purchases_by_root ON play_purchases (root_token, purchase_time)",
            "CREATE INDEX play_purchases_by_account ON play_purchases (obfuscated_account_id) WHERE obfuscated_account_id IS NOT NULL",
            "CREATE INDEX play_purchases_unacknowledged ON play_purchases (acknowledge_by) WHERE acknowledged = 0 AND acknowledge_by IS NOT NULL",
            "CREATE INDEX transactions_by_purchase_token ON transactions (purchase_token) WHERE purchase_token IS NOT NULL",
        ]
    }

    /// What Apple's signed transactions and renewal info carry beyond the rules' keys, kept
    /// typed so the desk can show them: the `appAccountToken` (which order a purchase was
    /// for, read when Apple's invoice names a purchase no order claims), the offer it was
    /// bought with (offer codes for one-time products too), a commitment plan's billing
    /// (monthly, payment n of N, committed until), and when Apple was told the purchase was
    /// finished. A subscription keeps Apple's latest renewal facts whole: the product it
    /// renews to, grace and billing retry, a price increase's consent, the commitment's
    /// renewal, the win-back offers it may take.
    private static let v24 = [
        "ALTER TABLE transactions ADD COLUMN app_account_token TEXT",
        "ALTER TABLE transactions ADD COLUMN offer_type BIGINT",
        "ALTER TABLE transactions ADD COLUMN offer_identifier TEXT",
        "ALTER TABLE transactions ADD COLUMN billing_plan TEXT",
        "ALTER TABLE transactions ADD COLUMN commitment_payment BIGINT",
        "ALTER TABLE transactions ADD COLUMN commitment_payments BIGINT",
        "ALTER TABLE transactions ADD COLUMN commitment_ends_at BIGINT",
        "ALTER TABLE transactions ADD COLUMN finished_at BIGINT",
        "ALTER TABLE subscriptions ADD COLUMN renews_to TEXT",
        "ALTER TABLE subscriptions ADD COLUMN grace_until BIGINT",
        "ALTER TABLE subscriptions ADD COLUMN billing_retry BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE subscriptions ADD COLUMN price_increase BIGINT",
        "ALTER TABLE subscriptions ADD COLUMN billing_plan TEXT",
        "ALTER TABLE subscriptions ADD COLUMN commitment_renews BIGINT",
        "ALTER TABLE subscriptions ADD COLUMN commitment_renews_at BIGINT",
        "ALTER TABLE subscriptions ADD COLUMN commitment_renews_to TEXT",
        "ALTER TABLE subscriptions ADD COLUMN win_back_offers TEXT",
    ]

    /// What one unit of a product gives in the game (`gems:100`), told in its events.
    private static let v22 = ["ALTER TABLE products ADD COLUMN gives TEXT"]

    /// An audit entry names the grant rows it records (R11's deliveries, a seed's
    /// range), chained with the entry, so a grant is found audited by its id and never by
    /// reading a sentence. Grants written before this migration are recorded only in their
    /// entries' words, read into facts by migration 32; `legacy_grants_through` bounds them.
    private static let v23 = [
        "ALTER TABLE audit_log ADD COLUMN grants_from BIGINT",
        "ALTER TABLE audit_log ADD COLUMN grants_to BIGINT",
        "ALTER TABLE audit_head ADD COLUMN legacy_grants_through BIGINT NOT NULL DEFAULT 0",
        "UPDATE audit_head SET legacy_grants_through = (SELECT COALESCE(MAX(id), 0) FROM grants)",
    ]

    /// Several apps in one store. The apps it serves (the one it recorded before
    /// included), and each product's app: orders, subscriptions and events have theirs through
    /// their product; a notification keeps the bundle id Apple signed into it. A store from
    /// before gives everything it holds to the app it recorded.
    private static let v21 = [
        "CREATE TABLE apps (bundle_id TEXT PRIMARY KEY, name TEXT, apple_app_id BIGINT, added_at BIGINT NOT NULL)",
        "INSERT INTO apps (bundle_id, added_at) SELECT value, 0 FROM store_meta WHERE key = 'bundle_id'",
        "ALTER TABLE products ADD COLUMN app TEXT",
        "CREATE INDEX products_by_app ON products (app, product_id)",
        "UPDATE products SET app = (SELECT value FROM store_meta WHERE key = 'bundle_id')",
        "ALTER TABLE notifications ADD COLUMN app TEXT",
        "UPDATE notifications SET app = (SELECT value FROM store_meta WHERE key = 'bundle_id')",
        // An order's app is its product's, copied when placed so `app:` reads one index range.
        "ALTER TABLE orders ADD COLUMN app TEXT",
        "UPDATE orders SET app = (SELECT p.app FROM products p WHERE p.product_id = orders.product_id)",
        "CREATE INDEX orders_by_app ON orders (app, created_at, order_id)",
        "CREATE INDEX orders_by_app_state ON orders (app, state, created_at, order_id)",
    ]

    /// The storefront (Apple's country code) a signed transaction names, for
    /// finance's exports.
    private static let v20 = ["ALTER TABLE transactions ADD COLUMN storefront TEXT"]

    /// Apple's order ids (the `MK…` a player gets by email) learned from Look Up
    /// Order ID, with the transactions each covers, so the next search needs no call.
    private static let v19 = [
        "CREATE TABLE apple_order_ids (apple_order_id TEXT NOT NULL, transaction_id TEXT NOT NULL, learned_at BIGINT NOT NULL, PRIMARY KEY (apple_order_id, transaction_id))"
    ]

    /// The catalogue a studio keeps itself: subscription groups and levels, a
    /// non-renewing product's duration, and retirement (no new orders).
    private static let v18 = [
        "ALTER TABLE products ADD COLUMN subscription_group TEXT",
        "ALTER TABLE products ADD COLUMN group_level BIGINT",
        "ALTER TABLE products ADD COLUMN duration_days BIGINT",
        "ALTER TABLE products ADD COLUMN retired_at BIGINT",
    ]

    /// Extensions of every active subscriber of a product an admin asked of Apple
    /// (after an outage), one in flight per product, with Apple's final counts.
    private static let v17 = [
        """
        CREATE TABLE mass_extensions (request_id TEXT PRIMARY KEY, product_id TEXT NOT NULL, days BIGINT NOT NULL, reason_code BIGINT NOT NULL,
          environment TEXT NOT NULL, operator TEXT NOT NULL, reason TEXT NOT NULL, claimed_at BIGINT NOT NULL, outcome TEXT NOT NULL,
          answered_at BIGINT, apple_error TEXT, complete_at BIGINT, succeeded BIGINT, failed BIGINT)
        """,
        "CREATE UNIQUE INDEX mass_extensions_one_in_flight ON mass_extensions (product_id) WHERE outcome = 'sending'",
        "CREATE INDEX mass_extensions_by_time ON mass_extensions (claimed_at)",
    ]

    /// Finance's monthly totals read deliveries by their time and refunds by
    /// Apple's cancellation date.
    private static let v16 = [
        "CREATE INDEX grants_by_time ON grants (granted_at)",
        "CREATE INDEX transactions_by_cancellation ON transactions (cancellation_date) WHERE cancellation_date IS NOT NULL",
    ]

    /// Support's notes on an order or an account, read on their screens.
    private static func v15(_ d: Dialect) -> [String] {
        [
            """
            CREATE TABLE notes (id \(d.serialPrimaryKey), target_kind TEXT NOT NULL, target_id TEXT NOT NULL, author TEXT NOT NULL,
              at BIGINT NOT NULL, text TEXT NOT NULL)
            """,
            "CREATE INDEX notes_by_target ON notes (target_kind, target_id, id)",
        ]
    }

    /// What the game reports of a purchase's use, the evidence a refund request
    /// is answered from (the latest per order is read).
    private static func v14(_ d: Dialect) -> [String] {
        [
            """
            CREATE TABLE consumption_reports (id \(d.serialPrimaryKey), order_id TEXT NOT NULL, reported_at BIGINT NOT NULL,
              consumption_percentage BIGINT NOT NULL, play_time TEXT, customer_consented BIGINT NOT NULL DEFAULT 0, client TEXT NOT NULL)
            """,
            "CREATE INDEX consumption_reports_by_order ON consumption_reports (order_id, id)",
        ]
    }

    /// Each extension of a subscription's renewal date an operator asked of Apple
    /// (Apple allows two a year); one per subscription in flight at a time.
    private static func v13(_ d: Dialect) -> [String] {
        [
            """
            CREATE TABLE subscription_extensions (id \(d.serialPrimaryKey), original_transaction_id TEXT NOT NULL, days BIGINT NOT NULL,
              reason_code BIGINT NOT NULL, request_id TEXT NOT NULL, operator TEXT NOT NULL, reason TEXT NOT NULL, claimed_at BIGINT NOT NULL,
              outcome TEXT NOT NULL, answered_at BIGINT, new_expiry BIGINT, apple_error TEXT)
            """,
            "CREATE UNIQUE INDEX subscription_extensions_one_in_flight ON subscription_extensions (original_transaction_id) WHERE outcome = 'sending'",
            "CREATE INDEX subscription_extensions_by_subscription ON subscription_extensions (original_transaction_id, id)",
        ]
    }

    /// Each answer to a refund request (Send Consumption Information), who sent
    /// it and what Apple said. One answer per request is sent: the database refuses a
    /// second claim while one is being sent or was sent.
    private static func v12(_ d: Dialect) -> [String] {
        [
            """
            CREATE TABLE refund_answers (id \(d.serialPrimaryKey), notification_id BIGINT NOT NULL, transaction_id TEXT NOT NULL,
              operator TEXT NOT NULL, reason TEXT NOT NULL, answer TEXT NOT NULL, claimed_at BIGINT NOT NULL, outcome TEXT NOT NULL,
              answered_at BIGINT, apple_error TEXT)
            """,
            "CREATE UNIQUE INDEX refund_answers_once ON refund_answers (notification_id) WHERE outcome IN ('sending', 'sent')",
            "CREATE INDEX refund_answers_by_notification ON refund_answers (notification_id, id)",
            "CREATE INDEX notifications_refund_requests ON notifications (deadline_at, id) WHERE type = 'CONSUMPTION_REQUEST' AND rejection IS NULL",
        ]
    }

    /// A subscription Apple tells about before any order holds it is kept with
    /// its facts and no owner (SQLite cannot drop a NOT NULL, so it copies the table). A
    /// transaction keeps Apple's partial refund, the share the game was told to take back,
    /// and the app transaction id that names the Apple Account (RESCIND_CONSENT).
    private static func v11(_ d: Dialect) -> [String] {
        let transactions = [
            "ALTER TABLE transactions ADD COLUMN refunded_share BIGINT",
            "ALTER TABLE transactions ADD COLUMN share_taken_back BIGINT",
            "ALTER TABLE transactions ADD COLUMN app_transaction_id TEXT",
            "CREATE INDEX transactions_by_app_transaction ON transactions (app_transaction_id) WHERE app_transaction_id IS NOT NULL",
        ]
        guard d == .sqlite else { return transactions + ["ALTER TABLE subscriptions ALTER COLUMN owner_account DROP NOT NULL"] }
        let columns =
            "original_transaction_id, owner_account, product_id, status, auto_renew, expires_at, owner_since, decided_by, updated_at, facts_as_of, facts_source"
        return [
            """
            CREATE TABLE subscriptions_v11 (original_transaction_id TEXT PRIMARY KEY, owner_account TEXT,
              product_id TEXT NOT NULL, status TEXT NOT NULL, auto_renew BIGINT NOT NULL, expires_at BIGINT,
              owner_since BIGINT NOT NULL, decided_by TEXT NOT NULL, updated_at BIGINT NOT NULL, facts_as_of BIGINT, facts_source TEXT)
            """,
            "INSERT INTO subscriptions_v11 (\(columns)) SELECT \(columns) FROM subscriptions",
            "DROP TABLE subscriptions",
            "ALTER TABLE subscriptions_v11 RENAME TO subscriptions",
            "CREATE INDEX subscriptions_by_owner ON subscriptions (owner_account, original_transaction_id)",
            "CREATE INDEX subscriptions_by_expiry ON subscriptions (expires_at, original_transaction_id) WHERE expires_at IS NOT NULL",
        ] + transactions
    }

    /// The console's banner groups the orders waiting for an operator by reason,
    /// with the oldest state change, on every refresh. The index now holds that time too,
    /// so the banner reads the index alone: at 10,000,000 orders (6,836 waiting) the query
    /// read 5,892 table pages and took 10-30 ms on PostgreSQL, every 2 s, while keys waited.
    private static let v10 = [
        "DROP INDEX orders_needs_operator",
        "CREATE INDEX orders_waiting_for_operator ON orders (last_error, order_id, state_changed_at) WHERE needs_operator = 1",
    ]

    /// Filters combine. State, product and environment two at a time each have an
    /// index that keys both and then the list order (an account narrows with anything
    /// through `orders_by_account`).
    private static let v9 = [
        "CREATE INDEX orders_by_state_product ON orders (state, product_id, created_at, order_id)",
        "CREATE INDEX orders_by_state_environment ON orders (state, environment, created_at, order_id)",
        "CREATE INDEX orders_by_product_environment ON orders (product_id, environment, created_at, order_id)",
    ]

    /// The audit chain anchored by a key kept outside the store: each entry's
    /// MAC, and the head's MAC with the fingerprint of the key that made it.
    private static let v8 = [
        "ALTER TABLE audit_log ADD COLUMN mac TEXT",
        "ALTER TABLE audit_head ADD COLUMN mac TEXT",
        "ALTER TABLE audit_head ADD COLUMN key_fingerprint TEXT",
        "ALTER TABLE audit_head ADD COLUMN keyed_since BIGINT",
    ]

    /// The outbox to the game: every change a game must act on is an event
    /// written in the transaction that made the change, with each try to tell the game.
    private static func v7(_ d: Dialect) -> [String] {
        [
            """
            CREATE TABLE events (id \(d.serialPrimaryKey), event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, order_id TEXT,
              account_id TEXT NOT NULL, created_at BIGINT NOT NULL, payload TEXT NOT NULL, attempts BIGINT NOT NULL DEFAULT 0,
              last_attempt_at BIGINT, last_status BIGINT, last_error TEXT, confirmed_at BIGINT, confirmed_via TEXT, dead_at BIGINT)
            """,
            "CREATE INDEX events_by_order ON events (order_id, id)",
            "CREATE INDEX events_unconfirmed ON events (id) WHERE confirmed_at IS NULL",
            "CREATE INDEX events_unconfirmed_by_account ON events (account_id, id) WHERE confirmed_at IS NULL",
            """
            CREATE TABLE event_attempts (id \(d.serialPrimaryKey), event BIGINT NOT NULL, at BIGINT NOT NULL, via TEXT NOT NULL,
              http_status BIGINT, answer TEXT, latency_ms BIGINT)
            """,
            "CREATE INDEX event_attempts_by_event ON event_attempts (event, id)",
        ]
    }

    /// Polling: the worker asks Apple about subscriptions whose period ends
    /// soon (seed 003); their expiry is a range of this index.
    private static let v6 = [
        "CREATE INDEX subscriptions_by_expiry ON subscriptions (expires_at, original_transaction_id) WHERE expires_at IS NOT NULL"
    ]

    /// Notifications: every App Store Server Notification kept raw with its
    /// verdict (unique by `notificationUUID` once verified), what applying it did, and
    /// the state of history sweeps. A job enqueued while its worker holds it remembers
    /// that it is owed again (`again_at`), so a finish cannot drop work that came in meanwhile.
    private static func v5(_ d: Dialect) -> [String] {
        [
            """
            CREATE TABLE notifications (id \(d.serialPrimaryKey), uuid TEXT UNIQUE, endpoint TEXT NOT NULL, via TEXT NOT NULL,
              received_at BIGINT NOT NULL, rejection TEXT, type TEXT, subtype TEXT, signed_date BIGINT, transaction_id TEXT,
              original_transaction_id TEXT, apply_key TEXT NOT NULL, facts TEXT NOT NULL, raw TEXT NOT NULL, outcome TEXT NOT NULL,
              detail TEXT, applied_at BIGINT, deadline_at BIGINT)
            """,
            "CREATE INDEX notifications_received ON notifications (received_at, id)",
            "CREATE INDEX notifications_transaction ON notifications (transaction_id, signed_date)",
            "CREATE INDEX notifications_original ON notifications (original_transaction_id, signed_date)",
            "CREATE INDEX notifications_pending ON notifications (apply_key, signed_date, id) WHERE outcome = 'pending'",
            "CREATE INDEX notifications_rejected ON notifications (id) WHERE rejection IS NOT NULL",
            "ALTER TABLE jobs ADD COLUMN again_at BIGINT",
            "CREATE TABLE service_state (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at BIGINT NOT NULL)",
        ]
    }

    /// The worker's durable jobs (one per kind and subject, leased by a worker
    /// until a deadline) and the intake's idempotency keys. Orders already waiting for
    /// Apple get their verify job, so nothing stored before the worker existed is forgotten.
    private static func v4(_ d: Dialect) -> [String] {
        [
            """
            CREATE TABLE jobs (id \(d.serialPrimaryKey), kind TEXT NOT NULL, subject TEXT NOT NULL, due_at BIGINT NOT NULL,
              attempts BIGINT NOT NULL DEFAULT 0, lease_owner TEXT, lease_until BIGINT, last_error TEXT, dead_at BIGINT,
              created_at BIGINT NOT NULL, UNIQUE (kind, subject))
            """,
            "CREATE INDEX jobs_due ON jobs (due_at, id) WHERE dead_at IS NULL",
            """
            INSERT INTO jobs (kind, subject, due_at, created_at)
            SELECT 'verify', order_id, COALESCE(next_retry_at, state_changed_at), state_changed_at FROM orders
            WHERE state = 'receipt_received' OR next_retry_at IS NOT NULL
            """,
            """
            CREATE TABLE idempotency_keys (client TEXT NOT NULL, key TEXT NOT NULL, request_hash TEXT NOT NULL,
              status BIGINT NOT NULL, body TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (client, key))
            """,
        ]
    }

    /// Hand deliveries confirmed later (R7), R8's facts with their age and source,
    /// upgrades that are no refunds (R9), and the store's verdict kept with each attempt.
    private static let v3 = [
        "ALTER TABLE orders ADD COLUMN delivery_conflict TEXT",
        "CREATE INDEX orders_delivery_conflicts ON orders (state_changed_at, order_id) WHERE delivery_conflict IS NOT NULL",
        "CREATE INDEX orders_needs_operator ON orders (last_error, order_id) WHERE needs_operator = 1",
        "ALTER TABLE transactions ADD COLUMN is_upgraded BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE subscriptions ADD COLUMN facts_as_of BIGINT",
        "ALTER TABLE subscriptions ADD COLUMN facts_source TEXT",
        "ALTER TABLE verification_attempts ADD COLUMN verdict TEXT",
        "CREATE INDEX orders_disputed_by_subscription ON orders (original_transaction_id, order_id) WHERE state = 'disputed'",
    ]

    /// Prefix search on ids (`/` in the console). SQLite's own indexes already order ids
    /// bytewise; PostgreSQL got expression indexes in the bytewise collation, because its
    /// database collation may be any locale (until migration 34 made the columns bytewise).
    private static func v2(_ d: Dialect) -> [String] {
        guard d == .postgres else { return [] }
        return [
            "CREATE INDEX orders_order_id_bytes ON orders ((order_id COLLATE \"C\"))",
            "CREATE INDEX orders_transaction_bytes ON orders ((transaction_id COLLATE \"C\"))",
            "CREATE INDEX orders_original_bytes ON orders ((original_transaction_id COLLATE \"C\"))",
            "CREATE INDEX orders_account_bytes ON orders ((account_id COLLATE \"C\"))",
        ]
    }

    private static func v1(_ d: Dialect) -> [String] {
        let serial = d.serialPrimaryKey
        var statements = [
            "CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """
            CREATE TABLE products (product_id TEXT PRIMARY KEY, type TEXT NOT NULL, display_name TEXT NOT NULL,
              price_minor BIGINT NOT NULL, currency TEXT NOT NULL)
            """,
            """
            CREATE TABLE orders (order_id TEXT PRIMARY KEY, account_id TEXT NOT NULL, product_id TEXT NOT NULL,
              quantity BIGINT NOT NULL, created_at BIGINT NOT NULL, state TEXT NOT NULL, state_changed_at BIGINT NOT NULL,
              version BIGINT NOT NULL, updated_by TEXT NOT NULL, stuck_since BIGINT, environment TEXT,
              transaction_id TEXT, original_transaction_id TEXT, attempts BIGINT NOT NULL DEFAULT 0,
              first_failure_at BIGINT, next_retry_at BIGINT, last_error TEXT,
              needs_operator BIGINT NOT NULL DEFAULT 0, replay_flag BIGINT NOT NULL DEFAULT 0)
            """,
            "CREATE INDEX orders_by_time ON orders (created_at, order_id)",
            "CREATE INDEX orders_by_state ON orders (state, created_at, order_id)",
            "CREATE INDEX orders_by_account ON orders (account_id, created_at, order_id)",
            "CREATE INDEX orders_by_product ON orders (product_id, created_at, order_id)",
            "CREATE INDEX orders_by_environment ON orders (environment, created_at, order_id)",
            "CREATE INDEX orders_by_transaction ON orders (transaction_id) WHERE transaction_id IS NOT NULL",
            "CREATE INDEX orders_by_original_transaction ON orders (original_transaction_id, created_at) WHERE original_transaction_id IS NOT NULL",
            "CREATE INDEX orders_stuck ON orders (stuck_since, order_id) WHERE stuck_since IS NOT NULL",
            "CREATE INDEX orders_retry_due ON orders (next_retry_at, order_id) WHERE next_retry_at IS NOT NULL",
            "CREATE TABLE state_counts (state TEXT PRIMARY KEY, n BIGINT NOT NULL)",
            """
            CREATE TABLE receipt_submissions (id \(serial), order_id TEXT, account_id TEXT NOT NULL,
              claimed_transaction_id TEXT, source TEXT NOT NULL, receipt_data TEXT NOT NULL, received_at BIGINT NOT NULL)
            """,
            "CREATE INDEX submissions_by_order ON receipt_submissions (order_id, id)",
            """
            CREATE TABLE verification_attempts (id \(serial), order_id TEXT NOT NULL, submission_id BIGINT,
              at BIGINT NOT NULL, method TEXT NOT NULL, environment TEXT, outcome TEXT NOT NULL, apple_status BIGINT,
              http_status BIGINT, latency_ms BIGINT NOT NULL, reason TEXT, body TEXT)
            """,
            "CREATE INDEX attempts_by_order ON verification_attempts (order_id, id)",
            """
            CREATE TABLE transactions (transaction_id TEXT PRIMARY KEY, original_transaction_id TEXT NOT NULL,
              product_id TEXT NOT NULL, quantity BIGINT NOT NULL, purchase_date BIGINT NOT NULL,
              original_purchase_date BIGINT, expires_date BIGINT, cancellation_date BIGINT, cancellation_reason BIGINT,
              web_order_line_item_id TEXT, ownership_type TEXT, environment TEXT, order_id TEXT, submitted_by TEXT,
              first_seen_at BIGINT NOT NULL)
            """,
            "CREATE INDEX transactions_by_original ON transactions (original_transaction_id, purchase_date, transaction_id)",
            "CREATE INDEX transactions_by_order ON transactions (order_id) WHERE order_id IS NOT NULL",
            "CREATE INDEX transactions_orphans ON transactions (first_seen_at, transaction_id) WHERE order_id IS NULL",
            // R7: a purchase key can be claimed once; the primary key is the guard.
            """
            CREATE TABLE claims (claim_key TEXT PRIMARY KEY, order_id TEXT NOT NULL, account_id TEXT NOT NULL,
              transaction_id TEXT NOT NULL, at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE grants (id \(serial), order_id TEXT NOT NULL, account_id TEXT NOT NULL, transaction_id TEXT,
              kind TEXT NOT NULL, operator TEXT NOT NULL, reason TEXT, granted_at BIGINT NOT NULL,
              revoked_at BIGINT, revoked_by TEXT, revoke_reason TEXT)
            """,
            // R11: at most one live grant per order, enforced by the database.
            "CREATE UNIQUE INDEX grants_once ON grants (order_id) WHERE revoked_at IS NULL",
            "CREATE INDEX grants_by_order ON grants (order_id, id)",
            "CREATE INDEX grants_by_account ON grants (account_id, id)",
            """
            CREATE TABLE subscriptions (original_transaction_id TEXT PRIMARY KEY, owner_account TEXT NOT NULL,
              product_id TEXT NOT NULL, status TEXT NOT NULL, auto_renew BIGINT NOT NULL, expires_at BIGINT,
              owner_since BIGINT NOT NULL, decided_by TEXT NOT NULL, updated_at BIGINT NOT NULL)
            """,
            "CREATE INDEX subscriptions_by_owner ON subscriptions (owner_account, original_transaction_id)",
            """
            CREATE TABLE ownership_events (id \(serial), original_transaction_id TEXT NOT NULL, order_id TEXT,
              submitted_by TEXT NOT NULL, from_account TEXT, to_account TEXT NOT NULL, at BIGINT NOT NULL,
              decided_by TEXT NOT NULL, verdict TEXT NOT NULL, reason TEXT NOT NULL, needs_review BIGINT NOT NULL)
            """,
            "CREATE INDEX ownership_by_subscription ON ownership_events (original_transaction_id, id)",
            "CREATE INDEX ownership_to_review ON ownership_events (id) WHERE needs_review = 1",
            """
            CREATE TABLE account_flags (id \(serial), account_id TEXT NOT NULL, flag TEXT NOT NULL, order_id TEXT,
              detail TEXT NOT NULL, at BIGINT NOT NULL)
            """,
            "CREATE INDEX flags_by_account ON account_flags (account_id, id)",
            "CREATE TABLE operators (name TEXT PRIMARY KEY, role TEXT NOT NULL, added_at BIGINT NOT NULL, added_by TEXT NOT NULL)",
            """
            CREATE TABLE audit_log (seq BIGINT PRIMARY KEY, at BIGINT NOT NULL, actor TEXT NOT NULL, role TEXT NOT NULL,
              action TEXT NOT NULL, target TEXT NOT NULL, reason TEXT, detail TEXT NOT NULL, prev_hash TEXT NOT NULL,
              hash TEXT NOT NULL)
            """,
            "CREATE INDEX audit_by_target ON audit_log (target, seq)",
            // One row that every audit append updates first: in PostgreSQL the row lock
            // serializes appenders, so the chain never forks.
            "CREATE TABLE audit_head (id BIGINT PRIMARY KEY, seq BIGINT NOT NULL, hash TEXT NOT NULL)",
            "INSERT INTO audit_head (id, seq, hash) VALUES (1, 0, '\(AuditChain.genesis)')",
        ]
        for state in OrderState.allCases {
            statements.append("INSERT INTO state_counts (state, n) VALUES ('\(state.rawValue)', 0)")
        }
        return statements
    }
}
