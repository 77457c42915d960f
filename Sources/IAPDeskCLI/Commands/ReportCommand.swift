import ArgumentParser
import OrderDomain
import OrderStore
import Presentation

/// `iapdesk report`: a month's deliveries or refunds totalled by product, environment and
/// currency, as finance reconciles them with Apple's sales and refund reports; or the
/// refund rates of what was delivered that month.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "A month (UTC): deliveries or refunds totalled by store, product and environment, or the refund rates of its deliveries.")

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case deliveries, refunds
        case refundRates = "refund-rates"
    }

    @OptionGroup var store: StoreOptions
    @Argument(help: "deliveries, refunds or refund-rates (per product, game account and Apple Account).") var kind: Kind
    @Option(help: "The month, as 2026-10 (UTC).") var month: Month
    @Option(help: "table, csv or json.") var format: ExportFormat = .table
    @Option(name: .customLong("store"), help: "Only one store's: apple or google (deliveries and refunds).") var marketplace: Marketplace?

    func run() async throws {
        switch kind {
        case .deliveries, .refunds:
            let kind: FinanceReport.Kind = kind == .deliveries ? .deliveries : .refunds
            let report = try await store.withStore { store, _ in try await store.reports.finance(kind, from: month.from, until: month.until, store: marketplace)
            }
            Output.report(report, format: format)
        case .refundRates:
            let rates = try await store.withStore { store, _ in try await store.reports.refundRates(from: month.from, until: month.until) }
            for (title, rows) in [("product", rates.byProduct), ("game account", rates.byAccount), ("Apple Account", rates.byAppleAccount)] {
                if format == .table { print("\nby \(title):") }
                Output.records(ExportFields.refundRates, rows, format: format, empty: "no refund")
            }
        }
    }
}
