import Logging
import NIOCore
import OrderDomain
import PostgresNIO
import SQLKit
import SQLiteNIO

/// A value in a bulk row: text, integer or NULL, bound straight into the driver.
@_spi(BulkLoad)
public enum BulkValue: Sendable {
    case text(String)
    case int(Int64)
    case null
}

/// What can stand in a bulk row literal.
@_spi(BulkLoad)
public protocol BulkConvertible: Sendable {
    var bulk: BulkValue { get }
}

@_spi(BulkLoad) extension String: BulkConvertible { public var bulk: BulkValue { .text(self) } }
@_spi(BulkLoad) extension Int64: BulkConvertible { public var bulk: BulkValue { .int(self) } }
@_spi(BulkLoad) extension Int: BulkConvertible { public var bulk: BulkValue { .int(Int64(self)) } }
@_spi(BulkLoad) extension Optional: BulkConvertible where Wrapped: BulkConvertible {
    public var bulk: BulkValue { self?.bulk ?? .null }
}

/// Bulk rows, written straight on the driver connection. SQLKit's general path
/// encodes every value through `Encodable`, which dominated a profile of seeding. SQLite
/// gets multi-row inserts with bound values (in process, nothing to stream); PostgreSQL
/// gets `COPY … FROM STDIN`, one stream per call with no statement to parse and no bind
/// limit, which took a million orders from 86 s of multi-row inserts to well inside the
/// minute. Operations never use this path.
struct BulkWriter: Sendable {
    let driver: Database.Driver
    /// SQLite allows 32,766 bound values per statement.
    let maxSQLiteBinds = 30_000
    /// COPY data is sent in pieces of about this size, so a big batch is never one buffer.
    let copyChunkBytes = 1 << 20

    func insert(into table: String, columns: [String], rows: [[any BulkConvertible]]) async throws {
        guard !rows.isEmpty else { return }
        switch driver {
        case .sqlite(let connection):
            let perStatement = max(1, maxSQLiteBinds / columns.count)
            var start = 0
            while start < rows.count {
                let chunk = rows[start..<min(start + perStatement, rows.count)]
                try await insert(connection, table: table, columns: columns, rows: chunk)
                start += perStatement
            }
        case .postgres(let connection):
            try await copy(connection, table: table, columns: columns, rows: rows)
        }
    }

    private func insert(_ connection: SQLiteConnection, table: String, columns: [String], rows: ArraySlice<[any BulkConvertible]>) async throws {
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ",") + ")"
        let sql =
            "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
            + Array(repeating: tuple, count: rows.count).joined(separator: ",")
        var binds: [SQLiteData] = []
        binds.reserveCapacity(rows.count * columns.count)
        for row in rows {
            for value in row {
                switch value.bulk {
                case .text(let text): binds.append(.text(text))
                case .int(let int): binds.append(.integer(Int(int)))
                case .null: binds.append(.null)
                }
            }
        }
        _ = try await connection.query(sql, binds)
    }

    private func copy(_ connection: PostgresConnection, table: String, columns: [String], rows: [[any BulkConvertible]]) async throws {
        try await connection.copyFrom(table: table, columns: columns, logger: Logger(label: "iapdesk.seed")) { writer in
            var buffer = ByteBuffer()
            buffer.reserveCapacity(copyChunkBytes + 4096)
            for row in rows {
                CopyText.append(row, to: &buffer)
                if buffer.readableBytes >= copyChunkBytes {
                    try await writer.write(buffer)
                    buffer.clear()
                }
            }
            if buffer.readableBytes > 0 { try await writer.write(buffer) }
        }
    }
}

/// PostgreSQL's COPY text format: one line per row, columns separated by tabs, NULL as
/// `\N`, and backslash, tab, newline and carriage return escaped so data can hold any of them.
enum CopyText {
    static func append(_ row: [any BulkConvertible], to buffer: inout ByteBuffer) {
        for (index, value) in row.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            switch value.bulk {
            case .int(let int): buffer.writeString(String(int))
            case .null: buffer.writeStaticString("\\N")
            case .text(let text): appendEscaped(text, to: &buffer)
            }
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    private static func appendEscaped(_ text: String, to buffer: inout ByteBuffer) {
        var text = text
        text.withUTF8 { bytes in
            var plainFrom = 0
            for (index, byte) in bytes.enumerated() {
                let escape: UInt8
                switch byte {
                case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
                case UInt8(ascii: "\t"): escape = UInt8(ascii: "t")
                case UInt8(ascii: "\n"): escape = UInt8(ascii: "n")
                case UInt8(ascii: "\r"): escape = UInt8(ascii: "r")
                default: continue
                }
                buffer.writeBytes(UnsafeBufferPointer(rebasing: bytes[plainFrom..<index]))
                buffer.writeInteger(UInt8(ascii: "\\"))
                buffer.writeInteger(escape)
                plainFrom = index + 1
            }
            buffer.writeBytes(UnsafeBufferPointer(rebasing: bytes[plainFrom...]))
        }
    }
}
