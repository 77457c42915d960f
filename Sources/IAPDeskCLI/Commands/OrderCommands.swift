import AppStore
import ArgumentParser
import Foundation
import GooglePlay
import OrderDomain
import OrderStore
import Presentation

struct OrderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order", abstract: "Find, read and act on orders.",
        subcommands: [List.self, Find.self, Show.self, Receipt.self, ReverifyCommand.self, Grant.self, Revoke.self, Attach.self, ResolveDispute.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Orders newest first, optionally narrowed; as a table, or CSV or JSON with delivery and refund times and price.")
        @OptionGroup var store: StoreOptions
        @Option(help: "Only this state.") var state: OrderState?
        @Option(help: "Only this account.") var account: String?
        @Option(help: "Only this product.") var product: String?
        @Option(help: "Only purchases from this Apple environment.") var env: AppleEnvironment?
        @Option(help: "Only orders of this app (bundle id or package name), when the store serves several.") var app: String?
        @Option(name: .customLong("store"), help: "Only orders paid in this store: apple or google.") var marketplace: Marketplace?
        @Option(help: "Placed at or after this day (2026-10-01, UTC) or instant (ISO 8601).") var since: Instant?
        @Option(help: "Placed before this day or instant.") var until: Instant?
        @Option(help: "table, csv or json (csv and json add delivered_at, refunded_at, price_minor, currency).") var format: ExportFormat = .table
        @Option(help: "How many.") var limit: Int = 50
        @Flag(help: "Every matching order, page by page (ignores --limit).") var all = false

        func run() async throws {
            let filter = OrderFilter(
                state: state, accountId: account, productId: product, environment: env, createdSince: since?.millis, createdBefore: until?.millis,
                app: app, marketplace: marketplace)
            guard format != .table else {
                let (page, production) = try await store.withStore { store, _ in
                    (try await store.orders.page(filter, limit: limit), store.settings.isProduction)
                }
                print(Output.table(OrderListings.orders(storeIsProduction: production, for: page.items), page.items))
                return
            }
            try await store.withStore { store, _ in
                try await Output.export(ExportFields.orders, format: format, limit: all ? nil : limit) { cursor, size in
                    try await store.orders.records(filter, after: cursor, limit: size)
                }
            }
        }
    }

    struct Find: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Exact lookup by order, account, transaction (Google's GPA.… too) or original transaction id, Apple's appTransactionId, Google's purchase token or obfuscated account id, or a store's order id (Apple's MK…, Google's GPA.…: asked of the store when unknown)."
        )
        @OptionGroup var store: StoreOptions
        @Argument(help: "An order, account, transaction or original transaction id, a purchase token, MK… or GPA.….") var id: String

        func run() async throws {
            if Orders.looksLikeGoogleOrderId(id) { return try await findGoogleOrder() }
            let (found, finding, production) = try await store.withStore { store, configuration in
                let found = try await store.orders.lookup(id)
                guard found.isEmpty, Orders.looksLikeAppleOrderId(id) else { return (found, nil as AppleOrderFinding?, store.settings.isProduction) }
                // A player's ticket quotes the order id on Apple's emailed receipt: the store
                // answers an invoice it learned before, else Apple is asked.
                let finding = try await AppleVerifier.using(try configuration.appStoreSettings()) { verifier in
                    try await store.orders.findAppleOrder(id) { appleOrderId, environment in
                        guard let client = verifier.serverAPI else { return .failed(AppleInvoicePresentation.needsServerAPI) }
                        return await client.invoice(appleOrderId, environment: environment)
                    }
                }
                return (found, finding, store.settings.isProduction)
            }
            if let finding {
                let (summary, failed) = AppleInvoicePresentation.summary(finding)
                guard case .found(let invoice) = finding else { throw CLIError(Output.safe(summary)) }
                print(Output.table(AppleInvoicePresentation.purchases(invoice.appleOrderId), invoice.purchases, width: 90))
                if !invoice.orders.isEmpty {
                    print("\n" + Output.table(OrderListings.orders(storeIsProduction: production, for: invoice.orders), invoice.orders))
                }
                if failed { FileHandle.standardError.write(Data((Output.safe(summary) + "\n").utf8)) }
                return
            }
            if found.isEmpty { throw CLIError("nothing matches \(Output.safe(id))") }
            print(Output.table(OrderListings.orders(storeIsProduction: production, for: found), found))
        }

        /// Google's order id from a player's receipt email: the orders that hold it, else
        /// Google is asked for the purchase token it was paid under, and the orders that
        /// submitted that token are listed.
        private func findGoogleOrder() async throws {
            let (found, finding, production) = try await store.withStore { store, configuration in
                let found = try await store.orders.lookup(id)
                guard found.isEmpty, let settings = try configuration.googlePlay.settings(source: configuration.source) else {
                    return (found, nil as GoogleOrderFinding?, store.settings.isProduction)
                }
                let client = PlayClient(settings: settings)
                let finding = try await store.orders.findGoogleOrder(id) { await client.googleOrder($0) }
                await client.shutdown()
                return (found, finding, store.settings.isProduction)
            }
            guard let finding else {
                guard !found.isEmpty else {
                    throw CLIError("nothing matches \(Output.safe(id)); " + GoogleOrderWords.needsServiceAccount("finding Google's order ids"))
                }
                print(Output.table(OrderListings.orders(storeIsProduction: production, for: found), found))
                return
            }
            let summary = GoogleOrderWords.summary(finding, id: id).text
            guard case .orders(let orders, _) = finding else {
                throw CLIError(Output.safe(GoogleOrderWords.nextStep(finding).map { "\(summary): \($0)" } ?? summary))
            }
            print(Output.safe(summary))
            print(Output.table(OrderListings.orders(storeIsProduction: production, for: orders), orders))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "An order and its timeline.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The order id.") var id: String

        func run() async throws {
            let (detail, settings) = try await store.withStore { store, _ in (try await store.orders.detail(id), store.settings) }
            print(Output.detail(OrderDetailPresentation.sections(detail, storeIsProduction: settings.isProduction, showsApp: settings.apps.count > 1)))
        }
    }

    struct Receipt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "What Apple said about an order, decoded: the console's receipt screen.",
            discussion: """
                Apple's stored answer to the latest call (or, before any, the submitted receipt \
                decoded here), its signatures checked against the configured trust roots, the \
                store's verdict with every check, the transactions the rules merged (▶ the \
                order's own) and every decoded field.
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "The order id.") var id: String
        @Flag(help: "Print the stored text itself (Apple's answer or the receipt) instead of decoding it.") var raw = false

        func run() async throws {
            let page = try await store.withStore { store, configuration in
                let trust = try configuration.trust()
                return await ReceiptPresentation.read(try await store.orders.detail(id), trust: trust, answers: StoredAnswers(trust: trust))
            }
            print(raw ? Output.safe(page.raw) : Output.detail(page.sections))
        }
    }

    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deliver an order by hand, with a reason (exactly once).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The order id.") var id: String
        @Option(help: "Why (goes into the audit log).") var reason: String
        @Option(help: "The version you looked at; defaults to the current one.") var expectVersion: Int64?

        func run() async throws {
            let order = try await store.act(on: id, expecting: expectVersion) { store, actor, version in
                try await store.orders.grant(orderId: id, expectedVersion: version, by: actor, reason: reason)
            }
            print("granted \(Output.safe(order.orderId)): now \(order.state.rawValue) (version \(order.version))")
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take back a delivery, with a reason.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The order id.") var id: String
        @Option(help: "Why, for the audit log (a ticket, what was checked).") var reason: String
        @Option(help: "Refuse if the order changed since this version (the one order show printed).") var expectVersion: Int64?

        func run() async throws {
            let order = try await store.act(on: id, expecting: expectVersion) { store, actor, version in
                try await store.orders.revoke(orderId: id, expectedVersion: version, by: actor, reason: reason)
            }
            print("revoked \(Output.safe(order.orderId)): now \(order.state.rawValue)")
        }
    }

    struct Attach: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Attach an orphan transaction to the order it paid for.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The orphan transaction id.") var transaction: String
        @Option(help: "The order it paid for.") var order: String
        @Option(help: "Why, for the audit log (a ticket, what was checked).") var reason: String

        func run() async throws {
            let attached = try await store.act(on: order, expecting: nil) { store, actor, version in
                try await store.orders.attach(transactionId: transaction, to: order, expectedVersion: version, by: actor, reason: reason)
            }
            print("attached \(Output.safe(transaction)) to \(Output.safe(attached.orderId)): now \(attached.state.rawValue)")
        }
    }

    struct ResolveDispute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "resolve", abstract: "Settle a disputed subscription renewal (R8).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The order id.") var id: String
        @Option(help: "owner (the rule's verdict stands) or submitter (the submitting account gets it).") var favor: Favor
        @Option(help: "Why, for the audit log (a ticket, what was checked).") var reason: String

        func run() async throws {
            let order = try await store.act(on: id, expecting: nil) { store, actor, version in
                try await store.subscriptions.resolve(orderId: id, expectedVersion: version, favor: favor, by: actor, reason: reason)
            }
            print("dispute on \(Output.safe(order.orderId)) settled: now \(order.state.rawValue)")
        }
    }
}

extension StoreOptions {
    /// An operator action on one order: the OS user's role from the store, and the version
    /// the operator saw (`--expect-version`), else the current one.
    func act(on orderId: String, expecting version: Int64?, _ body: (OrderStore, Operator, Int64) async throws -> Order) async throws -> Order {
        try await withStore { store, _ in
            let actor = try await store.operators.actor(forUser: OperatorIdentity.current)
            if let version { return try await body(store, actor, version) }
            guard let order = try await store.orders.find(orderId) else { throw StoreError.notFound(kind: .order, id: orderId) }
            return try await body(store, actor, order.version)
        }
    }
}

/// A plain error message for the command line.
package struct CLIError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
