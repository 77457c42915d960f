import AppStore
import ArgumentParser
import Foundation
import OrderDomain
import OrderStore

/// `iapdesk backfill`: what Apple's Transaction History knows of purchases the store never
/// saw (a studio's history, a transaction id from a ticket), recorded as Apple signed it.
struct BackfillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backfill",
        abstract: "Record what Apple's Transaction History knows of purchases (admins, audited): unclaimed ones become orphans to attach.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "Transaction ids (any of a purchase's: Apple lists the whole purchase).") var transactionIds: [String] = []
    @Option(help: ArgumentHelp("A file of transaction ids, one a line (# starts a comment).", valueName: "FILE")) var file: String?
    @Option(help: "The environment Apple is asked in.") var environment = AppleEnvironment.production
    @Option(help: "The app (bundle id) the transactions are of, when the store serves several (default: its first).") var app: String?
    @Flag(help: "Instead: ask Get App Transaction Info for the Apple Account of purchases only verifyReceipt answered (it names none).")
    var appleAccounts = false
    @Option(help: "With --apple-accounts: at most this many purchases (one call to Apple each).") var limit = 500
    @Option(help: "Why, for the audit log.") var reason: String

    func validate() throws {
        guard appleAccounts != (!transactionIds.isEmpty || file != nil) else {
            throw ValidationError("name transaction ids (or --file FILE), or --apple-accounts, one of them")
        }
    }

    func run() async throws {
        if appleAccounts { return try await fillAppleAccounts() }
        var ids = transactionIds
        if let file {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            ids += text.split(whereSeparator: \.isNewline).map { String($0.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        var failed = 0
        try await store.withAppleActions("backfill") { store, actor, client in
            let app = try store.servedApp(app)
            for id in ids {
                let history = await ActingApp.$bundleId.withValue(app) {
                    await client.allPages({ await client.transactionHistory(id, in: environment, revision: $0) })
                }
                switch history {
                case .failure(let failure):
                    failed += 1
                    print("\(Output.safe(id)): Apple answered \(failure)")
                case .success(let signed):
                    let transactions = signed.compactMap(AppleTransaction.init)
                    let result = try await store.apple.recordHistory(transactions, environment: environment, asked: id, by: actor, reason: reason)
                    print("\(Output.safe(id)): \(result.listed) transactions, \(result.new) new, \(result.unclaimed) claimed by no order")
                }
            }
        }
        if failed > 0 { throw ExitCode.failure }
    }

    /// `--apple-accounts`: the `appTransactionId` of each purchase that lacks one.
    private func fillAppleAccounts() async throws {
        var (found, failed) = (0, 0)
        try await store.withAppleActions("backfill --apple-accounts") { store, actor, client in
            for (transactionId, environment) in try await store.apple.purchasesWithoutAppleAccount(limit: limit) {
                let app = try await store.app(ofTransaction: transactionId)
                switch await ActingApp.$bundleId.withValue(app, operation: { await client.appTransactionInfo(transactionId, in: environment) }) {
                case .success(let answer):
                    guard let account = answer.value.appTransactionId else { continue }
                    try await store.apple.recordAppleAccount(account, ofPurchaseWith: transactionId, by: actor, reason: reason)
                    found += 1
                case .failure(let failure):
                    failed += 1
                    print("\(Output.safe(transactionId)): Apple answered \(failure)")
                }
            }
        }
        print("\(found) purchases now name their Apple Account\(failed > 0 ? "; \(failed) could not be asked" : "")")
        if failed > 0 { throw ExitCode.failure }
    }
}
