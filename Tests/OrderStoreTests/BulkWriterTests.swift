import TestSupport
import Testing

@_spi(BulkLoad) @testable import OrderStore

/// The seeder's bulk path (multi-row inserts on SQLite, `COPY` text on PostgreSQL) stores
/// every value exactly as given, whatever bytes it holds.
@Suite("Bulk writer")
struct BulkWriterTests {
    static let awkward: [String?] = [
        #"back\slash"#, "tab\there", "new\nline", "carriage\rreturn", #"\N"#, "", nil,
        "naïve ✓ 購入 \u{202E}", "trailing\\", String(repeating: "x", count: 2_000),
    ]

    @Test("Awkward text, NULL and 64-bit integers come back exactly as written, across chunk boundaries", arguments: Backend.all)
    func roundTrip(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.read { sql in try await sql.raw("CREATE TABLE bulk_probe (n BIGINT NOT NULL, label TEXT)").run() }
            // Enough rows that the PostgreSQL stream is sent in several pieces and the
            // SQLite inserts in several statements.
            // Negative, zero and the extremes too: integers are written digit by digit.
            let numbers = [Int64.min] + (0..<12_000).map { (Int64($0) - 6_000) * 1_000_000_007 } + [Int64.max]
            let rows: [[any BulkConvertible]] = numbers.enumerated().map { n, number in [number, Self.awkward[n % Self.awkward.count]] }
            try await BulkWriter(driver: store.db.driver).insert(into: "bulk_probe", columns: ["n", "label"], rows: rows)
            let back = try await store.read { sql in try await sql.rows("SELECT n, label FROM bulk_probe ORDER BY n") }
            #expect(back.count == rows.count)
            for (n, row) in back.enumerated() {
                let expected = Self.awkward[n % Self.awkward.count]
                guard try row.int64("n") == numbers[n], try row.optionalString("label") == expected else {
                    Issue.record("row \(n) came back as \(try row.int64("n")), \(String(describing: try row.optionalString("label")).prefix(40))")
                    return
                }
            }
        }
    }
}
