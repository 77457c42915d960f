import AppStore
import ArgumentParser
import OrderDomain
import OrderStore
import Presentation

struct StuckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stuck", abstract: "Paid, undelivered orders past the threshold, oldest first.",
        subcommands: [List.self, ReverifyStuckCommand.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The stuck queue (the default).")
        @OptionGroup var store: StoreOptions
        @Option(help: "At most this many rows.") var limit: Int = 50

        func run() async throws {
            let (counts, stuck, production) = try await store.withStore { store, _ in
                (try await store.reports.counts(), try await store.reports.stuck(limit: limit).items, store.settings.isProduction)
            }
            print("\(StoreCounts.text(counts.stuck)) stuck" + (counts.oldestStuckAge.map { ", oldest \(Output.age($0))" } ?? ""))
            print(Output.table(OrderListings.stuck(storeIsProduction: production, for: stuck), stuck))
        }
    }
}

struct OrphansCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "orphans", abstract: "Transactions Apple knows that no order claims.")
    @OptionGroup var store: StoreOptions
    @Option(help: "At most this many rows.") var limit: Int = 50

    func run() async throws {
        let orphans = try await store.withStore { store, _ in try await store.orders.orphans(limit: limit) }
        print(Output.table(QueueListings.orphans(), orphans))
    }
}

struct SubscriptionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscription", abstract: "Subscriptions by original transaction id, and ownership (R8).",
        subcommands: [Show.self, XRay.self, Transfer.self, Rebind.self, Extend.self, ExtendAll.self, Extensions.self, Disputes.self])

    struct Rebind: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "After a transfer: tell Apple the purchase now carries its owner's token (Set App Account Token), audited.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The subscription's original transaction id.") var originalTransactionId: String
        @Option(help: "Why, for the audit log.") var reason: String

        func run() async throws {
            let rebound = try await store.withAppleActions("rebinding") { store, actor, client in
                try await store.subscriptions.rebind(originalTransactionId: originalTransactionId, by: actor, reason: reason) {
                    await client.accountTokenRefusal(token: $0, originalTransactionId: $1, environment: $2)
                }
            }
            if let error = rebound.appleError {
                print(Output.safe("Apple refused the token: \(error)"))
                throw ExitCode.failure
            }
            print(Output.safe("Apple now names \(rebound.ownerAccount)'s order \(rebound.orderId) on subscription \(originalTransactionId)"))
        }
    }

    struct XRay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "xray",
            abstract: "An original transaction in time: periods, orders, notifications, owners, what the game was told, extensions, audit.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The subscription's original transaction id.") var originalTransactionId: String

        func run() async throws {
            let xray = try await store.withStore { store, _ in try await store.subscriptions.xray(originalTransactionId) }
            print(Output.detail(XRayPresentation.sections(xray)))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The transaction chain, who submitted each, and the owner history.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The subscription's original transaction id.") var originalTransactionId: String

        func run() async throws {
            let (d, production) = try await store.withStore { store, _ in
                (try await store.subscriptions.detail(originalTransactionId), store.settings.isProduction)
            }
            guard let sections = SubscriptionPresentation.sections(d, storeIsProduction: production) else {
                throw StoreError.notFound(kind: .subscription, id: originalTransactionId)
            }
            print("subscription \(Output.safe(originalTransactionId))")
            print(Output.detail(sections))
        }
    }

    struct Transfer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a subscription to another account, with a reason.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The subscription's original transaction id.") var originalTransactionId: String
        @Option(help: "The new owner account.") var to: String
        @Option(help: "Why, for the audit log (a ticket, what was checked).") var reason: String

        func run() async throws {
            try await store.withStore { store, _ in
                let actor = try await store.operators.actor(forUser: OperatorIdentity.current)
                try await store.subscriptions.transfer(originalTransactionId: originalTransactionId, to: to, by: actor, reason: reason)
            }
            print("subscription \(Output.safe(originalTransactionId)) now belongs to \(Output.safe(to))")
        }
    }

    struct Extend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Extend a subscription's renewal date with Apple (admins; Apple allows 90 days, twice a year), audited.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The subscription's original transaction id.") var originalTransactionId: String
        @Option(help: "Days to add (1-90).") var days: Int
        @Option(help: "Apple's reason code: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.") var reasonCode: Int
        @Option(help: "Why, for the audit log.") var reason: String

        func run() async throws {
            let done = try await store.withAppleActions("extending") { store, actor, client in
                try await store.extensions.extend(
                    originalTransactionId: originalTransactionId, days: days, reasonCode: reasonCode, by: actor, reason: reason
                ) { otid, days, code, request, environment in
                    await client.extensionAnswer(originalTransactionId: otid, days: days, reasonCode: code, requestId: request, environment: environment)
                }
            }
            guard done.outcome == .sent else {
                print(Output.safe("Apple refused the extension: \(done.appleError ?? "no reason given")"))
                throw ExitCode.failure
            }
            print(Output.safe("subscription \(originalTransactionId) extended by \(days) days: now ends \(TimeText.full(done.newExpiry))"))
        }
    }

    struct ExtendAll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "extend-all",
            abstract: "Extend every active subscriber of a product with Apple, after an outage (admins), audited; Apple works for hours.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The auto-renewable product.") var productId: String
        @Option(help: "Days to add (1-90).") var days: Int
        @Option(help: "Apple's reason code: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.") var reasonCode: Int
        @Option(help: "Why, for the audit log.") var reason: String
        @Flag(help: "Sandbox subscribers (testers) instead of production's.") var sandbox = false

        func run() async throws {
            let asked = try await store.withAppleActions("extending") { store, actor, client in
                try await store.extensions.extendAll(
                    productId: productId, days: days, reasonCode: reasonCode, environment: sandbox ? .sandbox : .production, by: actor, reason: reason
                ) { product, days, code, request, environment in
                    await client.massExtensionRefusal(productId: product, days: days, reasonCode: code, requestId: request, environment: environment)
                }
            }
            guard asked.outcome == .sent else {
                print(Output.safe("Apple refused the extension: \(asked.appleError ?? "no reason given")"))
                throw ExitCode.failure
            }
            print(Output.safe("Apple is extending every active \(productId) subscriber by \(days) days: request \(asked.requestId)"))
            print("follow it with: iapdesk subscription extensions --refresh")
        }
    }

    struct Extensions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Extensions for all subscribers, newest first, with Apple's counts and the subscriptions it could not extend.")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Ask Apple how far the ones in progress got (Get Status of Subscription Renewal Date Extensions).") var refresh = false
        @Option(help: "At most this many rows.") var limit: Int = 20

        func run() async throws {
            if refresh {
                try await store.withAppleActions("asking Apple") { store, _, client in
                    for pending in try await store.extensions.mass(limit: limit) where pending.inProgress {
                        let (_, refusal) = try await store.extensions.refreshMass(pending.requestId) { product, request, environment in
                            await client.massExtensionProgress(productId: product, requestId: request, environment: environment)
                        }
                        if let refusal { print(Output.safe("\(pending.requestId): Apple did not say: \(refusal)")) }
                    }
                }
            }
            let (extensions, failures) = try await store.withStore { store, _ in
                let extensions = try await store.extensions.mass(limit: limit)
                var failures: [String: [NotificationRecord]] = [:]
                for e in extensions where e.outcome == .sent {
                    failures[e.requestId] = try await store.extensions.massFailures(productId: e.productId, since: e.claimedAt)
                }
                return (extensions, failures)
            }
            print(Output.table(MassExtensionPresentation.listing(), extensions))
            for e in extensions {
                guard let failed = failures[e.requestId], !failed.isEmpty else { continue }
                print("\nnot extended in \(e.requestId) (RENEWAL_EXTENSION/FAILURE):")
                for n in failed { print(Output.safe("  \(n.facts.originalTransactionId ?? "?")  \(TimeText.full(n.facts.signedDate))")) }
            }
        }
    }

    struct Disputes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "R8 decisions waiting for review.")
        @OptionGroup var store: StoreOptions
        @Option(help: "At most this many rows.") var limit: Int = 50
        @Option(name: .customLong("store"), help: "Only one store's: apple or google.") var marketplace: Marketplace?

        func run() async throws {
            let events = try await store.withStore { store, _ in try await store.subscriptions.disputes(limit: limit, in: marketplace) }
            print(Output.table(OwnershipListings.disputes(store: marketplace), events))
        }
    }
}
