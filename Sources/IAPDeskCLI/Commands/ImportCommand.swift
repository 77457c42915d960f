import ArgumentParser
import Foundation
import OrderDomain
import OrderStore
import Receipts

/// `iapdesk import orders FILE`: a studio's past orders from its own table, checked whole
/// before anything is written (every error names the line and the field), then imported one
/// order at a time: a run cut short is simply run again, and orders already there are skipped.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Bring a studio's history in: import orders FILE (CSV or JSON Lines).", subcommands: [Orders.self])

    struct Orders: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Import past orders (admins, audited): delivered ones are recorded as delivered and the game is not told again; \
                pending ones are placed, and their receipt_data or signed_transaction submitted for the worker to verify with Apple.
                """)

        static let columns = [
            "order_id", "account_id", "product_id", "quantity", "created_at", "state", "transaction_id", "receipt_data", "signed_transaction",
        ]

        @OptionGroup var store: StoreOptions
        @Argument(help: "A .csv file (a header line naming the columns \(columns.joined(separator: ","))) or .jsonl, one object a line.")
        var file: String
        @Flag(help: "Check every line and say what would happen; write nothing.") var dryRun = false
        @Option(help: "Why, for the audit log.") var reason: String

        /// A line of the file, checked.
        struct Line {
            var place: String
            var order: ImportedOrder
            var receipt: String?
            /// A StoreKit 2 signed transaction, checked like the intake checks one before it is stored.
            var signedTransaction: String?
        }

        func run() async throws {
            guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("\(file): cannot read it") }
            let text = String(decoding: data, as: UTF8.self)
            let records =
                file.hasSuffix(".csv")
                ? try RecordFile.csv(text, file: file, columns: Self.columns, required: "order_id") : try RecordFile.jsonLines(text, file: file)
            let lines = try records.map(Self.line)
            try await store.withStore { store, configuration in
                let actor = try await store.operators.actor(forUser: OperatorIdentity.current)
                // The app of each product in the catalogue: a signed transaction must be that app's.
                let appOf = Dictionary(
                    try await store.catalogue.products().map { ($0.productId, store.settings.app(of: $0)) }, uniquingKeysWith: { first, _ in first })
                if let unknown = lines.first(where: { appOf[$0.order.productId] == nil }) {
                    throw ValidationError(
                        "\(unknown.place)product_id: \(unknown.order.productId) is not in the catalogue (iapdesk product add or import first)")
                }
                // Signed transactions are checked with the rest, before anything is written.
                var signedIds: [String: String] = [:]
                let trust = try configuration.trust()
                for line in lines {
                    guard let signed = line.signedTransaction else { continue }
                    do {
                        let transaction = try await JWS(compact: signed).verified(
                            as: JWSTransaction.self, trust: trust, bundleId: appOf[line.order.productId] ?? store.settings.bundleId)
                        signedIds[line.order.orderId] = transaction.transactionId
                    } catch {
                        throw ValidationError("\(line.place)signed_transaction: \(error)")
                    }
                }
                var counts: [String: Int] = [:]
                for line in lines {
                    let outcome: String
                    if dryRun {
                        outcome =
                            try await store.orders.find(line.order.orderId) != nil
                            ? ImportOutcome.alreadyThere.rawValue : line.order.delivered ? "delivered" : "placed"
                    } else {
                        let imported = try await store.orders.import(line.order, by: actor, reason: reason)
                        if imported == .placed, let receipt = line.receipt {
                            _ = try await store.orders.submit(orderId: line.order.orderId, receiptData: receipt, claimedTransactionId: line.order.transactionId)
                        }
                        if imported == .placed, let signed = line.signedTransaction {
                            _ = try await store.orders.submit(
                                orderId: line.order.orderId, evidence: .signedTransaction(signed), claimedTransactionId: signedIds[line.order.orderId])
                        }
                        outcome = imported.rawValue
                    }
                    counts[outcome, default: 0] += 1
                }
                let summary = counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                print("\(dryRun ? "would import" : "imported") \(lines.count) orders from \(Output.safe(file)): \(summary)")
            }
        }

        /// One record as an order, or the line and field at fault.
        static func line(_ record: RecordFile.Record) throws -> Line {
            let (place, f) = record
            if let unknown = f.keys.sorted().first(where: { !columns.contains($0) }) { throw ValidationError("\(place)no field \(unknown)") }
            func need(_ name: String) throws -> String {
                guard let value = f[name], !value.isEmpty else { throw ValidationError("\(place)\(name): required") }
                return value
            }
            func optional(_ name: String) -> String? { f[name].flatMap { $0.isEmpty ? nil : $0 } }
            guard let created = Instant(argument: try need("created_at")) else {
                throw ValidationError("\(place)created_at: an ISO 8601 time such as 2025-03-01T08:00:00Z")
            }
            let quantity = try optional("quantity").map {
                guard let n = Int($0), n > 0 else { throw ValidationError("\(place)quantity: a whole number above 0") }
                return n
            }
            let state = try need("state")
            guard ["delivered", "pending"].contains(state) else { throw ValidationError("\(place)state: delivered or pending, not \(state)") }
            let (receipt, signed) = (optional("receipt_data"), optional("signed_transaction"))
            if receipt != nil, signed != nil { throw ValidationError("\(place)receipt_data or signed_transaction: one of them") }
            if state == "delivered", receipt != nil || signed != nil {
                throw ValidationError(
                    "\(place)\(receipt != nil ? "receipt_data" : "signed_transaction"): only for a pending order (a delivered one is not verified again)")
            }
            return Line(
                place: place,
                order: ImportedOrder(
                    orderId: try need("order_id"), accountId: try need("account_id"), productId: try need("product_id"), quantity: quantity ?? 1,
                    createdAt: created.millis, delivered: state == "delivered", transactionId: optional("transaction_id")),
                receipt: receipt, signedTransaction: signed)
        }
    }
}
