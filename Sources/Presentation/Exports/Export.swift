import Foundation
import OrderDomain

/// A value of an exported record: a CSV cell, a JSON value, a table cell.
public enum ExportValue: Sendable, Equatable {
    case text(String?)
    case number(Int64?)
    /// An instant, written as ISO 8601 in UTC.
    case time(Millis?)
}

/// One column of an export: its key (CSV header, JSON member) and how a record fills it.
public struct ExportField<Item>: Sendable {
    public let key: String
    public let value: @Sendable (Item) -> ExportValue

    public init(_ key: String, _ value: @escaping @Sendable (Item) -> ExportValue) {
        self.key = key
        self.value = value
    }
}

/// What `--format` may ask for.
public enum ExportFormat: String, Sendable, CaseIterable {
    case table, csv, json
}

/// Records written as CSV (RFC 4180) or JSON, a page at a time so an export of millions of
/// orders never holds them all. A CSV cell that a spreadsheet would run as a formula (`=`,
/// `+`, `-`, `@`) gets a leading `'`, as finance opens these files in one. JSON escapes
/// control characters; the caller sanitizes CSV lines before they reach a terminal.
public enum Export {
    public static func text(_ value: ExportValue) -> String {
        switch value {
        case .text(let text): text ?? ""
        case .number(let number): number.map(String.init) ?? ""
        case .time(let time): time.map(iso8601) ?? ""
        }
    }

    public static func iso8601(_ millis: Millis) -> String {
        Date(timeIntervalSince1970: Double(millis) / 1000).formatted(.iso8601)
    }

    public static func csvHeader<Item>(_ fields: [ExportField<Item>]) -> String {
        fields.map { csvCell($0.key) }.joined(separator: ",")
    }

    /// One line per record, without a trailing newline.
    public static func csvLines<Item>(_ fields: [ExportField<Item>], _ items: [Item]) -> [String] {
        items.map { item in
            fields.map { field in
                let value = field.value(item)
                let cell = text(value)
                if case .text = value, let first = cell.first, "=+-@".contains(first) { return csvCell("'" + cell) }
                return csvCell(cell)
            }.joined(separator: ",")
        }
    }

    /// One CSV line of plain text cells (formulas defused as in ``csvLines(_:_:)``).
    public static func csvRow(_ cells: [String]) -> String {
        cells.map { cell in csvCell(cell.first.map { "=+-@".contains($0) } == true ? "'" + cell : cell) }.joined(separator: ",")
    }

    static func csvCell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One JSON object per record (numbers as numbers, absent values as null), each on a line.
    public static func jsonObjects<Item>(_ fields: [ExportField<Item>], _ items: [Item]) -> [String] {
        items.map { item in
            "{"
                + fields.map { field in
                    let value: String
                    switch field.value(item) {
                    case .number(let number?): value = String(number)
                    case .number(nil), .text(nil), .time(nil): value = "null"
                    case .text(let text?): value = jsonString(text)
                    case .time(let time?): value = jsonString(iso8601(time))
                    }
                    return jsonString(field.key) + ":" + value
                }.joined(separator: ",") + "}"
        }
    }

    static func jsonString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// What `order list` and `iapdesk report` export.
public enum ExportFields {
    public static let orders: [ExportField<OrderRecord>] = [
        ExportField("order_id") { .text($0.order.orderId) },
        ExportField("account_id") { .text($0.order.accountId) },
        ExportField("product_id") { .text($0.order.productId) },
        ExportField("quantity") { .number(Int64($0.order.quantity)) },
        ExportField("state") { .text($0.order.state.rawValue) },
        ExportField("environment") { .text($0.order.environment?.rawValue) },
        ExportField("transaction_id") { .text($0.order.transactionId) },
        ExportField("created_at") { .time($0.order.createdAt) },
        ExportField("delivered_at") { .time($0.deliveredAt) },
        ExportField("refunded_at") { .time($0.refundedAt) },
        ExportField("price_minor") { .number($0.priceMinor) },
        ExportField("currency") { .text($0.currency) },
        ExportField("storefront") { .text($0.storefront) },
        ExportField("app") { .text($0.app) },
        ExportField("store") { .text($0.order.marketplace.rawValue) },
    ]

    public static let report: [ExportField<FinanceReport.Row>] = [
        ExportField("store") { .text($0.marketplace.rawValue) },
        ExportField("product_id") { .text($0.productId) },
        ExportField("environment") { .text($0.environment?.rawValue) },
        ExportField("count") { .number($0.count) },
        ExportField("units") { .number($0.units) },
        ExportField("price_minor") { .number($0.priceMinor) },
        ExportField("currency") { .text($0.currency) },
        ExportField("amount_minor") { .number($0.amountMinor) },
    ]

    public static let refundRates: [ExportField<RefundRates.Row>] = [
        ExportField("key") { .text($0.key) },
        ExportField("delivered") { .number($0.delivered) },
        ExportField("refunded") { .number($0.refunded) },
        // Tenths of a percent, so the number stays whole: 125 is 12.5 %.
        ExportField("rate_permille") { .number(Int64(($0.rate * 1000).rounded())) },
        ExportField("accounts") { .number($0.accounts) },
    ]
}
