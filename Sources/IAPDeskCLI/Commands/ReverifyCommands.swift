import AppStore
import ArgumentParser
import Foundation
import OrderDomain
import OrderStore
import Presentation

/// `iapdesk order reverify ID`: the order's latest stored receipt goes to Apple (the Server
/// API when the client named a transaction and a key is configured, verifyReceipt
/// otherwise); the attempt and the resulting state are stored and audited.
struct ReverifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reverify", abstract: "Re-verify an order's stored receipt with Apple now.")
    @OptionGroup var store: StoreOptions
    @Argument(help: "The order id.") var id: String

    func run() async throws {
        let outcome = try await store.withStore { store, configuration in
            let actor = try await store.operators.actor(forUser: OperatorIdentity.current)
            return try await AppleVerifier.using(try configuration.appStoreSettings()) { verifier in
                try await store.apple.reverify(orderId: id, using: verifier, by: actor)
            }
        }
        print(Output.verification(outcome))
    }
}

/// `iapdesk stuck reverify`: every order due for its R4 retry (or the whole stuck queue with
/// `--all`), with bounded concurrency and a progress line.
struct ReverifyStuckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reverify", abstract: "Re-verify stuck orders with Apple, many at once.")
    @OptionGroup var store: StoreOptions
    @Flag(help: "The whole stuck queue, not only orders whose retry time has come.") var all = false
    @Option(help: "At most this many orders.") var limit: Int = 1000
    @Option(help: "Calls to Apple in flight at once.") var concurrency: Int = 32
    @Option(
        help: ArgumentHelp(
            "Instead, re-verify the orders rejected for this reason code (admins only), as the order page shows it: e.g. apple.status.21010 "
                + "(or just 21010), r5.bundle_id.",
            valueName: "code"))
    var rejected: String?

    func run() async throws {
        guard concurrency > 0 else { throw ValidationError("--concurrency must be positive") }
        guard rejected == nil || !all else { throw ValidationError("--rejected and --all choose different orders: give one") }
        // A bare number is Apple's status, the code operators remember.
        let reason = try rejected.map { code in
            guard let reason = OrderReason(code: Int(code) == nil ? code : "apple.status.\(code)") else {
                throw ValidationError("--rejected \(Output.safe(code)): no such reason code (the order page shows an order's, e.g. apple.status.21010)")
            }
            return reason
        }
        let result = try await store.withStore { store, configuration in
            let actor = try await store.operators.actor(forUser: OperatorIdentity.current)
            let ids: [String] =
                if let reason {
                    try await store.apple.rejectedOrders(reason: reason, limit: limit)
                } else if all {
                    try await store.reports.stuck(limit: limit).items.map(\.order.orderId)
                } else {
                    try await store.apple.dueForRetry(limit: limit)
                }
            return try await AppleVerifier.using(try configuration.appStoreSettings()) { verifier in
                await store.apple.reverifyAll(
                    ids, using: verifier, by: actor, concurrency: concurrency,
                    progress: { progress in
                        FileHandle.standardError.write(
                            Data(
                                "\r\(progress.done)/\(progress.total) re-verified, \(progress.delivered) delivered, \(progress.retrying) waiting on Apple".utf8)
                        )
                    })
            }
        }
        FileHandle.standardError.write(Data("\n".utf8))
        print(result.summary)
        for failure in result.failed { print("  \(Output.safe(failure.orderId)): \(Output.safe(ErrorWords.what(failure.error)))") }
        // A run where anything failed is a failure to a script or a cron job (a viewer's
        // run fails for every order).
        if !result.failed.isEmpty { throw ExitCode.failure }
    }
}

extension Output {
    /// One re-verification: what Apple said, what it means and where the order is now.
    static func verification(_ outcome: VerificationOutcome) -> String {
        ([safe(VerificationPresentation.headline(outcome))] + VerificationPresentation.lines(outcome).map { "  " + safe($0.text) })
            .joined(separator: "\n")
    }
}
