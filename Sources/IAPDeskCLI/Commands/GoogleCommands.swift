import ArgumentParser
import Foundation
import GooglePlay
import OrderDomain
import OrderStore
import Presentation

/// Google Play's side of the desk: the purchases Google refunds unless acknowledged, and
/// acknowledging one now.
struct GoogleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "google",
        abstract:
            "Google Play: acknowledgements owed before Google's three-day refund, acknowledging one now, refunding an order, revoking or deferring a subscription, attaching a purchase no order submitted.",
        subcommands: [Acknowledgements.self, Acknowledge.self, Refund.self, Revoke.self, Defer.self, DeferAll.self, Attach.self])

    struct Acknowledgements: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "acks", abstract: "Paid Google Play purchases not yet acknowledged, soonest refund deadline first, with the time left.")
        @OptionGroup var store: StoreOptions
        @Option(help: "At most this many rows.") var limit: Int = 50

        func run() async throws {
            let owed = try await store.withStore { store, _ in try await store.googlePlay.owedAcknowledgements(limit: limit) }
            print(Output.table(QueueListings.acknowledgements(now: .now()), owed))
        }
    }

    struct Acknowledge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tell Google a delivered purchase was delivered (consumed too, when the game asked), now rather than on the worker's schedule; audited.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The order, or the purchase token.") var id: String
        @Option(help: "Why, for the audit log (a ticket, what was checked).") var reason: String

        func run() async throws {
            let (outcome, orderId) = try await store.withPlayActions("acknowledging") { store, actor, google in
                let order = try await store.orders.find(id)
                var purchases: [StoredPlayPurchase] = []
                let tokens = if let order { try await store.googlePlay.tokens(ofOrder: order.orderId) } else { [id] }
                for token in tokens {
                    if let purchase = try await store.googlePlay.purchase(token: token) { purchases.append(purchase) }
                }
                // An order's token still owed, else its first: Google answers "acknowledged already" for that.
                guard let token = (purchases.first { !$0.facts.acknowledged } ?? purchases.first)?.facts.purchaseToken else {
                    throw ValidationError("\(id) is no Google Play purchase the store knows (an order of one, or its purchase token)")
                }
                let outcome = try await store.googlePlay.acknowledge(purchaseToken: token, by: actor, reason: reason) {
                    await google.acknowledgeRefusal($0)
                }
                return (outcome, order?.orderId)
            }
            print(Output.safe(PlayAcknowledgeWords.result(outcome, orderId: orderId)))
            if PlayAcknowledgeWords.isFailure(outcome) { throw ExitCode.failure }
        }
    }

    struct Refund: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Ask Google to refund a delivered order (orders.refund), taking access back unless --keep-access; audited. Google's voided notice then revokes it here (R9)."
        )
        @OptionGroup var store: StoreOptions
        @Argument(help: "The order.") var orderId: String
        @Option(help: "Why, for the audit log (a ticket, what was checked).") var reason: String
        @Flag(help: "Refund the money and leave the purchase (no revoke).") var keepAccess = false

        func run() async throws {
            let (refusal, googleOrderId) = try await store.withPlayActions("refunding") { store, actor, google in
                let refusal = try await store.googlePlay.refund(orderId: orderId, revoke: !keepAccess, by: actor, reason: reason) {
                    await google.refundRefusal(package: $0, orderId: $1, revoke: $2)
                }
                return (refusal, try await store.orders.find(orderId)?.transactionId)
            }
            if let refusal { throw CLIError(Output.safe("Google refused: \(refusal)")) }
            print(Output.safe(PlayRefundWords.requested(orderId, googleOrderId: googleOrderId, revoke: !keepAccess)))
        }
    }

    struct DeferAll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "defer-all",
            abstract:
                "Defer every active Google Play subscriber of a product (after an outage), one after another with progress, admins only, each audited.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The subscription product.") var productId: String
        @Option(help: "How many days (1 to \(GooglePlayPurchases.maxDeferDays)).") var days: Int
        @Option(help: "Why, for the audit log.") var reason: String

        func run() async throws {
            let summary = try await store.withPlayActions("deferring") { store, actor, google in
                try await store.googlePlay.deferAll(
                    productId: productId, days: days, by: actor, reason: reason,
                    progress: { done, total in FileHandle.standardError.write(Data("\r\(done)/\(total) deferred or refused".utf8)) }
                ) { await google.deferAnswer(package: $0, purchaseToken: $1, seconds: $2) }
            }
            FileHandle.standardError.write(Data("\n".utf8))
            print(Output.safe(PlayDeferAllWords.headline(summary, productId: productId, days: days)))
            for refusal in PlayDeferAllWords.refusals(summary) { print(Output.safe("  \(refusal)")) }
            if !summary.refused.isEmpty { throw ExitCode.failure }
        }
    }

    struct Attach: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Attach a Google Play purchase no order submitted (order find GPA.… names its token) to the order it paid for; verified with Google and put through the rules, audited."
        )
        @OptionGroup var store: StoreOptions
        @Argument(help: "The purchase token.") var purchaseToken: String
        @Option(help: "The order it paid for.") var order: String
        @Option(help: "The app's package name (default: the first of [google_play] package_names).") var package: String?
        @Option(help: "Why, for the audit log (a ticket, what was checked).") var reason: String

        func run() async throws {
            let outcome = try await store.withPlayActions("attaching") { store, actor, google in
                let verifier = PlayVerifier(client: google)
                let package = self.package ?? google.settings.packageNames.first ?? ""
                return try await store.googlePlay.attach(purchaseToken: purchaseToken, package: package, to: order, by: actor, reason: reason) {
                    await verifier.verify($0, claimedTransactionId: nil)
                }
            }
            print(Output.safe(VerificationPresentation.oneLine(outcome)))
            if outcome.order.state != .delivered { throw ExitCode.failure }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Revoke a Google Play subscription at Google (subscriptionsv2.revoke): access ends now, refunded in full unless --prorated; audited. Google's voided notice then revokes it here (R9)."
        )
        @OptionGroup var store: StoreOptions
        @Argument(help: "The subscription's original transaction id (its first GPA.… order).") var originalTransactionId: String
        @Option(help: "Why, for the audit log.") var reason: String
        @Flag(help: "Refund only the unused part of the period.") var prorated = false

        func run() async throws {
            let refusal = try await store.withPlayActions("revoking") { store, actor, google in
                try await store.googlePlay.revokeSubscription(originalTransactionId: originalTransactionId, prorated: prorated, by: actor, reason: reason) {
                    await google.revokeRefusal(package: $0, purchaseToken: $1, prorated: $2)
                }
            }
            if let refusal { throw CLIError(Output.safe("Google refused: \(refusal)")) }
            print(Output.safe("Google revokes \(originalTransactionId) (\(prorated ? "prorated" : "full") refund); its voided notice ends it here"))
        }
    }

    struct Defer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Defer a Google Play subscription's next renewal (subscriptionsv2.defer), admins only, audited; the game is told as a renewal.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The subscription's original transaction id (its first GPA.… order).") var originalTransactionId: String
        @Option(help: "How many days (1 to \(GooglePlayPurchases.maxDeferDays)).") var days: Int
        @Option(help: "Why, for the audit log.") var reason: String

        func run() async throws {
            let answer = try await store.withPlayActions("deferring") { store, actor, google in
                try await store.googlePlay.deferRenewal(originalTransactionId: originalTransactionId, days: days, by: actor, reason: reason) {
                    await google.deferAnswer(package: $0, purchaseToken: $1, seconds: $2)
                }
            }
            switch answer {
            case .deferred(let end): print(Output.safe("deferred \(originalTransactionId) by \(days) days at Google: now ends \(end.iso8601)"))
            case .refused(let why): throw CLIError(Output.safe("Google refused: \(why)"))
            }
        }
    }
}

extension StoreOptions {
    /// The store, the operator at the keyboard, and the Play Developer API client, for a
    /// command that acts on Google's side (`what` names it when `[google_play]` is missing).
    func withPlayActions<T>(_ what: String, _ body: (OrderStore, Operator, PlayClient) async throws -> T) async throws -> T {
        try await withStore { store, configuration in
            let actor = try await store.operators.actor(forUser: OperatorIdentity.current)
            guard let settings = try configuration.googlePlay.settings(source: configuration.source) else {
                throw ValidationError(GoogleOrderWords.needsServiceAccount(what))
            }
            let client = PlayClient(settings: settings)
            do {
                let result = try await body(store, actor, client)
                await client.shutdown()
                return result
            } catch {
                await client.shutdown()
                throw error
            }
        }
    }
}
