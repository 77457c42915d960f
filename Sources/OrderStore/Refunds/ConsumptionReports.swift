import OrderDomain
import SQLKit

extension Refunds {
    /// Keeps what the game reports of a purchase's use, newest last; a refund request on the
    /// order shows the latest and an answer starts from it. Every report is kept (the game
    /// reports again as the player spends), none is audited: it is the game's evidence, not
    /// an operator's act.
    ///
    /// - Throws: `StoreError/notFound(kind:id:)` for an unknown order;
    ///   `StoreError/invalid(_:)` for a share outside 0…100000 thousandths of a percent.
    @discardableResult
    public func reportConsumption(
        orderId: String, consumptionPercentage: Int, playTime: ConsumptionReport.PlayTime?, customerConsented: Bool = false, client: String,
        at now: Millis = .now()
    ) async throws -> ConsumptionReport {
        guard (0...100_000).contains(consumptionPercentage) else { throw StoreError.invalid(.consumptionOutOfRange) }
        let report = ConsumptionReport(
            orderId: orderId, reportedAt: now, consumptionPercentage: consumptionPercentage, playTime: playTime, customerConsented: customerConsented,
            client: client)
        try await store.write(as: .system, now: now) { tx in
            guard try await tx.sql.row("SELECT 1 AS found FROM orders WHERE order_id = \(bind: orderId)") != nil else {
                throw StoreError.notFound(kind: .order, id: orderId)
            }
            try await tx.sql.raw(
                """
                INSERT INTO consumption_reports (order_id, reported_at, consumption_percentage, play_time, customer_consented, client)
                VALUES (\(bind: orderId), \(bind: now), \(bind: consumptionPercentage), \(bind: playTime?.rawValue), \(bind: customerConsented ? 1 : 0),
                        \(bind: client))
                """
            ).run()
        }
        return report
    }

    /// The game's latest report on an order, if it sent one.
    public func consumptionReport(orderId: String) async throws -> ConsumptionReport? {
        try await store.read { sql in try await ConsumptionReport.latest(orderId: orderId, sql) }
    }
}

extension ConsumptionReport: StoredRecord {
    enum Column: String, TableColumn {
        case orderId = "order_id", reportedAt = "reported_at", consumptionPercentage = "consumption_percentage", playTime = "play_time",
            customerConsented = "customer_consented", client
    }

    init(_ row: Columns<Column>) throws {
        self.init(
            orderId: try row.string(.orderId), reportedAt: try row.int64(.reportedAt), consumptionPercentage: try row.int(.consumptionPercentage),
            playTime: try row.optionalString(.playTime).flatMap(PlayTime.init(rawValue:)), customerConsented: try row.bool(.customerConsented),
            client: try row.string(.client))
    }

    static func latest(orderId: String, _ sql: any SQLDatabase) async throws -> ConsumptionReport? {
        try await sql.row(
            "SELECT \(unsafeRaw: Column.list) FROM consumption_reports WHERE order_id = \(bind: orderId) ORDER BY id DESC LIMIT 1"
        ).map(ConsumptionReport.init(row:))
    }
}
