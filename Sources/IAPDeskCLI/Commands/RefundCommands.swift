import AppStore
import ArgumentParser
import Foundation
import OrderDomain
import OrderStore
import Presentation

/// `iapdesk refunds`: Apple's refund requests (CONSUMPTION_REQUEST) by deadline, one with
/// its evidence, and the answer (Send Consumption Information) an operator sends.
struct RefundsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refunds", abstract: "Apple's refund requests: list by deadline, show one with its evidence, answer one.",
        subcommands: [List.self, Show.self, Answer.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open requests, soonest deadline first (the default).")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Answered and expired requests too.") var all = false
        @Option(help: "At most this many rows.") var limit: Int = 50

        func run() async throws {
            let now = Millis.now()
            let requests = try await store.withStore { store, _ in try await store.refunds.requests(open: !all, at: now, limit: limit, evidence: false) }
            let open = requests.filter { $0.isOpen(at: now) }
            print("refund requests \(open.count)" + (open.first.map { ", next \(RefundRequestPresentation.countdown($0.deadline, now: now))" } ?? ""))
            print(Output.table(RefundRequestPresentation.queue(now: now), requests, width: 60))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One request: the purchase, its delivery, the account's refunds, the answers.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The request's notification id (from `iapdesk refunds`).") var id: Int64

        func run() async throws {
            let request = try await store.withStore { store, _ in try await store.refunds.request(id) }
            print(Output.detail(RefundRequestPresentation.sections(request, now: .now())))
        }
    }

    struct Answer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send Apple consumption information for a request (needs the App Store Server API key), once, audited.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The request's notification id.") var id: Int64
        @Flag(help: "The customer consented to sharing consumption data (Apple takes nothing without it).") var consented = false
        @Option(help: "delivered, quality-issue, wrong-item, server-outage or other.") var delivery = "delivered"
        @Option(help: "How much of the purchase was used, in percent (0-100), or unknown.") var consumed: String?
        @Option(help: "What the studio would like Apple to do: decline, grant-full, grant-prorated or none.") var prefer: String?
        @Flag(help: "The customer was given a free sample or trial first.") var sampleContent = false
        @Option(help: "Why, for the audit log (a ticket, what was checked).") var reason: String

        func validate() throws {
            _ = try answer()
        }

        func answer() throws -> ConsumptionAnswer {
            do {
                return try RefundAnswerWords.answer(
                    consented: consented, delivery: delivery, consumed: consumed, prefer: prefer, sampleContent: sampleContent)
            } catch {
                throw ValidationError("--\(error.description)")
            }
        }

        func run() async throws {
            let answer = try answer()
            let sent = try await store.withAppleActions("answering Apple") { store, actor, client in
                try await store.refunds.answer(notificationId: id, answer: answer, by: actor, reason: reason) {
                    await client.consumptionRefusal(transactionId: $0, environment: $1, answer: $2)
                }
            }
            guard sent.outcome == .sent else {
                print(Output.safe("Apple refused the answer: \(sent.appleError ?? "no reason given")"))
                throw ExitCode.failure
            }
            print(Output.safe("sent to Apple: \(sent.answer?.summary ?? "")"))
        }
    }
}
