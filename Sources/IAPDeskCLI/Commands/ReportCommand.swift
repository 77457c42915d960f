import ArgumentParser
import OrderStore
import Presentation

/// `iapdesk report`: a month's deliveries or refunds totalled by product, environment and
/// currency, as finance reconciles them with Apple's sales and refund reports.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Deliveries or refunds in a month (UTC), totalled by product and environment.")
    @OptionGroup var store: StoreOptions
    @Argument(help: "deliveries or refunds.") var kind: FinanceReport.Kind
    @Option(help: "The month, as 2026-10 (UTC).") var month: Month
    @Option(help: "table, csv or json.") var format: ExportFormat = .table

    func run() async throws {
        let report = try await store.withStore { store, _ in try await store.financeReport(kind, from: month.from, until: month.until) }
        Output.report(report, format: format)
    }
}
