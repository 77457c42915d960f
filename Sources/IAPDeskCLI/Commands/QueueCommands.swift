import ArgumentParser
import OrderStore

struct StuckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stuck", abstract: "Paid, undelivered orders past the threshold, oldest first.",
        subcommands: [List.self, ReverifyStuckCommand.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The stuck queue (the default).")
    @OptionGroup var store: StoreOptions
    @Option var limit: Int = 50

    func run() async throws {
        let (counts, stuck) = try await store.withStore { store, _ in (try await store.counts(), try await store.stuckOrders(limit: limit).items) }
        print("\(StoreCounts.text(counts.stuck)) stuck" + (counts.oldestStuckAge.map { ", oldest \(Output.age($0))" } ?? ""))
        print(Output.table(["ORDER", "ACCOUNT", "STATE", "AGE", "ATTEMPTS", "NEXT RETRY", "LAST ERROR"], stuck.map {
            [Output.safe($0.order.orderId), Output.safe($0.order.accountId), $0.order.state.rawValue, Output.age($0.age), "\($0.attempts)",
             $0.order.needsOperator ? "needs operator" : Output.time($0.nextRetryAt), Output.safe($0.lastError)]
        }))
    }
    }
}

struct OrphansCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "orphans", abstract: "Transactions Apple knows that no order claims.")
    @OptionGroup var store: StoreOptions
    @Option var limit: Int = 50

    func run() async throws {
        let orphans = try await store.withStore { store, _ in try await store.orphans(limit: limit) }
        print(Output.table(["TRANSACTION", "ORIGINAL", "PRODUCT", "PURCHASED", "ENV", "REFUNDED"], orphans.map {
            [Output.safe($0.transaction.transactionId), Output.safe($0.transaction.originalTransactionId), Output.safe($0.transaction.productId),
             Output.time($0.transaction.purchaseDate), $0.environment?.rawValue ?? "-", Output.time($0.transaction.cancellationDate)]
        }))
    }
}

struct SubscriptionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscription", abstract: "Subscriptions by original transaction id, and ownership (R8).",
        subcommands: [Show.self, Transfer.self, Disputes.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The transaction chain, who submitted each, and the owner history.")
        @OptionGroup var store: StoreOptions
        @Argument var originalTransactionId: String

        func run() async throws {
            let d = try await store.withStore { store, _ in try await store.subscription(originalTransactionId) }
            guard let s = d.subscription else { throw StoreError.notFound(kind: "subscription", id: originalTransactionId) }
            print(Output.keyValues([
                ("subscription", Output.safe(s.originalTransactionId)), ("owner", Output.safe(s.ownerAccount) + " since \(Output.time(s.ownerSince)), decided by \(Output.safe(s.decidedBy))"),
                ("product", Output.safe(s.productId)), ("status", "\(s.status), auto-renew \(s.autoRenew ? "on" : "off"), expires \(Output.time(s.expiresAt))"),
            ]))
            print("\nchain:")
            print(Output.table(["TRANSACTION", "PRODUCT", "PURCHASED", "EXPIRES", "ORDER", "SUBMITTED BY"], d.chain.map {
                [Output.safe($0.transaction.transactionId), Output.safe($0.transaction.productId), Output.time($0.transaction.purchaseDate),
                 Output.time($0.transaction.expiresDate), Output.safe($0.orderId), Output.safe($0.submittedBy)]
            }))
            print("\nnotifications from Apple:")
            print(Output.table(["SIGNED", "ID", "TYPE", "TRANSACTION", "OUTCOME", "DETAIL"], d.notifications.map {
                [Output.time($0.facts.signedDate), "\($0.id)", Output.safe($0.facts.kind), Output.safe($0.facts.transaction?.transactionId),
                 $0.outcome.rawValue, Output.safe($0.rejection ?? $0.detail)]
            }, width: 80))
            print("\nownership:")
            print(Output.table(["WHEN", "VERDICT", "FROM", "TO", "BY", "WHY"], d.ownership.map {
                [Output.time($0.at), $0.verdict.rawValue + ($0.needsReview ? " (review)" : ""), Output.safe($0.fromAccount), Output.safe($0.toAccount),
                 Output.safe($0.decidedBy), Output.safe($0.reason)]
            }, width: 80))
        }
    }

    struct Transfer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a subscription to another account, with a reason.")
        @OptionGroup var store: StoreOptions
        @Argument var originalTransactionId: String
        @Option(help: "The new owner account.") var to: String
        @Option var reason: String

        func run() async throws {
            try await store.withStore { store, _ in
                let actor = try await store.actor(forUser: OperatorIdentity.current)
                try await store.transferOwnership(originalTransactionId: originalTransactionId, to: to, by: actor, reason: reason)
            }
            print("subscription \(Output.safe(originalTransactionId)) now belongs to \(Output.safe(to))")
        }
    }

    struct Disputes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "R8 decisions waiting for review.")
        @OptionGroup var store: StoreOptions
        @Option var limit: Int = 50

        func run() async throws {
            let events = try await store.withStore { store, _ in try await store.disputes(limit: limit) }
            print(Output.table(["WHEN", "SUBSCRIPTION", "ORDER", "SUBMITTED BY", "VERDICT", "OWNER"], events.map {
                [Output.time($0.at), Output.safe($0.originalTransactionId), Output.safe($0.orderId), Output.safe($0.submittedBy), $0.verdict.rawValue, Output.safe($0.toAccount)]
            }))
        }
    }
}
