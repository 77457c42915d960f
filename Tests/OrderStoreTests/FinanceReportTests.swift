import Foundation
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// What finance reads: a month's deliveries by their time and refunds by Apple's
/// cancellation date, totalled by product with sandbox apart; orders between two instants
/// with their delivery and refund times and price.
@Suite("Store: finance reports and order records")
struct FinanceReportTests {
    static let october: (Millis, Millis) = (t0 - .days(31), t0)
    static let november: (Millis, Millis) = (t0, t0 + .days(30))

    @Test(
        "October's deliveries count October's grants by product with sandbox apart and the catalogue's amounts; a refund counts in the month Apple cancelled it; order records carry delivery, refund and price and keep to their span",
        arguments: Backend.all)
    func monthly(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.deliveredOrder("oct-1", product: "coins_60", quantity: 3, at: t0 - .days(17))
            try await store.deliveredOrder("oct-2", product: "coins_60", at: t0 - .days(10))
            try await store.deliveredOrder("oct-3", product: "no_ads", at: t0 - .days(5), environment: .sandbox)
            try await store.deliveredOrder("nov-1", product: "coins_60", at: t0 + .days(1))
            _ = try await store.apple.recordRefund(transactionId: "tx-oct-1", cancelledAt: t0 + .days(2), at: t0 + .days(2))

            let deliveries = try await store.reports.finance(.deliveries, from: Self.october.0, until: Self.october.1)
            #expect(deliveries.rows.count == 2, "\(deliveries.rows)")
            let coins = try #require(deliveries.rows.first { $0.productId == "coins_60" })
            #expect(coins.environment == .production && coins.count == 2 && coins.units == 4 && coins.amountMinor == 2400 && coins.currency == "CNY")
            let sandbox = try #require(deliveries.rows.first { $0.productId == "no_ads" })
            #expect(sandbox.environment == .sandbox && sandbox.count == 1 && sandbox.amountMinor == 1800, "kept apart, not in production's row")

            #expect(try await store.reports.finance(.refunds, from: Self.october.0, until: Self.october.1).rows.isEmpty, "refunded in November")
            let refunds = try await store.reports.finance(.refunds, from: Self.november.0, until: Self.november.1)
            #expect(refunds.rows.map(\.productId) == ["coins_60"] && refunds.rows.first?.units == 3 && refunds.rows.first?.amountMinor == 1800)
            #expect(try await store.reports.finance(.deliveries, from: Self.november.0, until: Self.november.1).rows.map(\.count) == [1])

            let records = try await store.orders.records(OrderFilter(createdSince: Self.october.0, createdBefore: Self.october.1)).items
            #expect(records.map(\.order.orderId) == ["oct-3", "oct-2", "oct-1"], "newest first, November's left out")
            let first = try #require(records.last)
            #expect(first.deliveredAt == t0 - .days(17) + 3000 && first.refundedAt == t0 + .days(2) && first.priceMinor == 600 && first.currency == "CNY")
            #expect(records.first?.refundedAt == nil)
            #expect(try await store.orders.records(OrderFilter(productId: "coins_60", createdSince: t0)).items.map(\.order.orderId) == ["nov-1"])
        }
    }

    @Test(
        "Each store's deliveries are totalled apart, as finance reconciles them with that store's own report; one store's alone on asking",
        arguments: Backend.all)
    func byStore(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.deliveredOrder("oct-apple", product: "coins_60", at: t0 - .days(17))
            try await store.deliveredOrder("oct-play", product: "coins_60", quantity: 2, at: t0 - .days(10))
            // Paid at Google: the order says so (as a Google Play submission sets it).
            try await store.read { sql in try await sql.raw("UPDATE orders SET marketplace = 'google_play' WHERE order_id = 'oct-play'").run() }
            let both = try await store.reports.finance(.deliveries, from: Self.october.0, until: Self.october.1)
            #expect(both.rows.map(\.marketplace) == [.appStore, .googlePlay] && both.rows.map(\.units) == [1, 2], "\(both.rows)")
            let play = try await store.reports.finance(.deliveries, from: Self.october.0, until: Self.october.1, store: .googlePlay)
            #expect(play.rows.count == 1 && play.rows.first?.marketplace == .googlePlay && play.rows.first?.amountMinor == 1200, "\(play.rows)")
        }
    }

    @Test(
        "Refund rates of October's deliveries: per product, the accounts with refunds, and an Apple Account that refunded under two game accounts",
        arguments: Backend.all)
    func refundRates(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.deliveredOrder("r-1", at: t0 - .days(20))
            try await store.deliveredOrder("r-2", at: t0 - .days(15))
            try await store.deliveredOrder("r-3", at: t0 - .days(10))
            try await store.deliveredOrder("r-4", product: "no_ads", at: t0 - .days(5))
            try await store.deliveredOrder("r-5", at: t0 + .days(1))
            // r-1 and r-3 were bought by one Apple Account under two game accounts; both refunded.
            try await store.db.sql.raw("UPDATE transactions SET app_transaction_id = 'app-1' WHERE transaction_id IN ('tx-r-1', 'tx-r-3')").run()
            for refunded in ["tx-r-1", "tx-r-3", "tx-r-5"] { _ = try await store.apple.recordRefund(transactionId: refunded, cancelledAt: t0 + .days(2)) }

            let rates = try await store.reports.refundRates(from: Self.october.0, until: Self.october.1)
            #expect(rates.byProduct.map(\.key) == ["coins_60", "no_ads"])
            let coins = try #require(rates.byProduct.first)
            #expect(coins.delivered == 3 && coins.refunded == 2 && abs(coins.rate - 2.0 / 3) < 1e-9, "November's delivery is not October's")
            #expect(rates.byProduct.last?.refunded == 0)
            #expect(rates.byAccount.map(\.key) == ["acct-r-1", "acct-r-3"] && rates.byAccount.allSatisfy { $0.refunded == 1 })
            #expect(rates.byAppleAccount == [RefundRates.Row(key: "app-1", delivered: 2, refunded: 2, accounts: 2)])
        }
    }
}
