import Foundation
import Logging
import NIOPosix
import OrderDomain
import OrderStore
import PostgresKit
import SQLiteKit

/// The same queries as the store runs, on a connection of their own with nothing in
/// between, so the store's overhead shows as a ratio.
enum RawSQL {
    case sqlite(SQLiteConnection)
    case postgres(PostgresConnection)

    static func open(_ location: StoreLocation) async throws -> RawSQL {
        switch location {
        case .sqlite(let path):
            return .sqlite(try await SQLiteConnection.open(storage: .file(path: path)))
        case .postgres:
            return .postgres(
                try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: try location.postgresConfiguration(), id: 99,
                    logger: Logger(label: "bench")))
        }
    }

    static let orderColumns = """
        order_id, account_id, product_id, quantity, created_at, state, state_changed_at, version, updated_by, stuck_since, \
        environment, transaction_id, original_transaction_id, attempts, first_failure_at, next_retry_at, last_error, needs_operator, replay_flag
        """

    /// Fetch one order by id; returns the number of rows.
    func orderById(_ id: String) async throws -> Int {
        switch self {
        case .sqlite(let connection):
            return try await connection.query("SELECT \(Self.orderColumns) FROM orders WHERE order_id = ?", [.text(id)]).count
        case .postgres(let connection):
            var n = 0
            for try await _ in try await connection.query(
                "SELECT \(unescaped: Self.orderColumns) FROM orders WHERE order_id = \(id)", logger: Logger(label: "bench"))
            { n += 1 }
            return n
        }
    }

    /// The first page of the newest orders.
    func firstPage(limit: Int) async throws -> Int {
        switch self {
        case .sqlite(let connection):
            return try await connection.query("SELECT \(Self.orderColumns) FROM orders ORDER BY created_at DESC, order_id DESC LIMIT \(limit)", [])
                .count
        case .postgres(let connection):
            var n = 0
            for try await _ in try await connection.query(
                "SELECT \(unescaped: Self.orderColumns) FROM orders ORDER BY created_at DESC, order_id DESC LIMIT \(limit)", logger: Logger(label: "bench"))
            { n += 1 }
            return n
        }
    }

    func close() async {
        switch self {
        case .sqlite(let connection): try? await connection.close()
        case .postgres(let connection): try? await connection.close()
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
