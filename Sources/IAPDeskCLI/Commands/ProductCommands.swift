import ArgumentParser
import ConfigFiles
import Foundation
import OrderDomain
import OrderStore
import Presentation

/// `iapdesk product`: the studio's catalogue: list, show, add, update, retire, import.
/// Changes are admins', audited with a reason.
struct ProductCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "product", abstract: "The catalogue: list, show, add, update, retire, import, unknown (changes are admins', audited).",
        subcommands: [List.self, Show.self, Add.self, Update.self, Retire.self, Import.self, Unknown.self], defaultSubcommand: List.self)

    struct Unknown: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Products Apple sold that the catalogue lacks: their transactions are kept (orphans until claimed); add each with product add.")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let unknown = try await store.withStore { store, _ in try await store.catalogue.unknown() }
            print(Output.table(ProductPresentation.unknownListing(), unknown))
            if let first = unknown.first {
                print("add one with: iapdesk product add \(Output.safe(first.productId)) --type … --name … --price … --currency … --reason …")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every product, retired ones too (the default).")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let products = try await store.withStore { store, _ in try await store.catalogue.products() }
            print(Output.table(ProductPresentation.listing(), products))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One product.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The product id, as in App Store Connect.") var productId: String

        func run() async throws {
            guard let product = try await store.withStore({ store, _ in try await store.catalogue.product(productId) }) else {
                throw StoreError.unknownProduct(productId)
            }
            print(Output.table(ProductPresentation.listing(), [product]))
        }
    }

    /// The fields `add` and `update` take.
    struct Fields: ParsableArguments {
        @Argument(help: "The product id, as in App Store Connect.") var productId: String
        @Option(help: "consumable, non_consumable, auto_renewable or non_renewing.") var type: ProductType
        @Option(help: "The name players see (any script).") var name: String
        @Option(help: "The price, as 6.00 (or 120 for a currency without cents).") var price: String
        @Option(help: "ISO 4217, as CNY.") var currency: String
        @Option(help: "Auto-renewable: its subscription group.") var group: String?
        @Option(help: "Auto-renewable: its level in the group (1 is the highest service).") var level: Int?
        @Option(help: "Non-renewing: how many days one purchase lasts (Apple gives no expiry).") var durationDays: Int?
        @Option(help: "The app (bundle id) that sells it; needed when the store serves several (iapdesk app list).") var app: String?
        @Option(help: "What one unit gives in the game, told in its events: gems:100,coins:5.") var gives: String?

        /// Adds the product (or, `replacing`, changes it) as the operator at the keyboard.
        func define(in store: StoreOptions, replacing: Bool, reason: String) async throws -> Product {
            let product = try product()
            try await store.withStore { store, _ in
                try await store.catalogue.define(
                    product, replacing: replacing, by: try await store.operators.actor(forUser: OperatorIdentity.current), reason: reason)
            }
            return product
        }

        func product() throws -> Product {
            try ProductRecord.product(
                id: productId, type: type.rawValue, name: name, price: price, currency: currency, group: group, level: level.map(String.init),
                durationDays: durationDays.map(String.init), gives: gives, app: app)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a product (admins), audited.")
        @OptionGroup var store: StoreOptions
        @OptionGroup var fields: Fields
        @Option(help: "Why, for the audit log.") var reason: String

        func run() async throws {
            let product = try await fields.define(in: store, replacing: false, reason: reason)
            print(Output.safe("added \(product.productId): \(product.displayName), \(ProductPresentation.price(product.priceMinor, product.currency))"))
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a product (admins; its type only while no order names it), audited.")
        @OptionGroup var store: StoreOptions
        @OptionGroup var fields: Fields
        @Option(help: "Why, for the audit log.") var reason: String

        func run() async throws {
            let product = try await fields.define(in: store, replacing: true, reason: reason)
            print(Output.safe("updated \(product.productId)"))
        }
    }

    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Retire a product: no new order may name it (admins), audited.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The product id, as in App Store Connect.") var productId: String
        @Option(help: "Why, for the audit log.") var reason: String

        func run() async throws {
            try await store.withStore { store, _ in
                try await store.catalogue.retire(productId, by: try await store.operators.actor(forUser: OperatorIdentity.current), reason: reason)
            }
            print(Output.safe("retired \(productId)"))
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add or update products from a TOML ([[products]]) or CSV file (id,type,name,price,currency,group,level,duration_days,gives,app).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The file (.toml or .csv).") var file: String
        @Flag(help: "Check every line and say what would change, changing nothing.") var dryRun = false
        @Option(help: "Why, for the audit log.") var reason: String

        func run() async throws {
            let products = try ProductRecord.read(file: file)
            try await store.withStore { store, _ in
                let actor = try await store.operators.actor(forUser: OperatorIdentity.current)
                for product in products {
                    let product = try store.withApp(product)
                    let existing = try await store.catalogue.product(product.productId)
                    var known = existing
                    known?.retiredAt = nil
                    let verb = existing == nil ? "add" : known == product ? "unchanged" : "update"
                    print(Output.safe("\(dryRun ? "would " : "")\(verb) \(product.productId): \(product.displayName)"))
                    guard !dryRun, verb != "unchanged" else { continue }
                    try await store.catalogue.define(product, replacing: existing != nil, by: actor, reason: reason)
                }
            }
        }
    }
}

/// A product read from typed fields, a TOML entry or a CSV line; errors name where and which field.
enum ProductRecord {
    static let fields = ["id", "type", "name", "price", "currency", "group", "level", "duration_days", "gives", "app"]

    static func product(
        id: String, type: String, name: String, price: String, currency: String, group: String?, level: String?, durationDays: String?,
        gives: String? = nil, app: String? = nil, at place: String = ""
    ) throws -> Product {
        func fail(_ field: String, _ why: String) -> ValidationError { ValidationError("\(place)\(field): \(why)") }
        guard let kind = ProductType(rawValue: type) else {
            throw fail("type", "one of \(ProductType.allCases.map(\.rawValue).joined(separator: ", ")), not \(type)")
        }
        guard let minor = ProductPresentation.minorUnits(price, currency: currency) else { throw fail("price", "a price such as 6.00, not \(price)") }
        guard let items = Product.gives(gives ?? "") else { throw fail("gives", "items as gems:100,coins:5, not \(gives ?? "")") }
        let product = Product(
            productId: id, type: kind, displayName: name, priceMinor: minor, currency: currency, subscriptionGroup: group.flatMap { $0.isEmpty ? nil : $0 },
            groupLevel: try level.flatMap { $0.isEmpty ? nil : $0 }.map {
                guard let n = Int($0) else { throw fail("level", "a whole number") }; return n
            },
            durationDays: try durationDays.flatMap { $0.isEmpty ? nil : $0 }.map {
                guard let n = Int($0) else { throw fail("duration_days", "a whole number") }
                return n
            }, gives: items, app: app.flatMap { $0.isEmpty ? nil : $0 })
        if let problem = product.problem { throw ValidationError("\(place)\(problem.words)") }
        return product
    }

    static func read(file: String) throws -> [Product] {
        guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("\(file): cannot read it") }
        let text = String(decoding: data, as: UTF8.self)
        let records: [(String, [String: String])]
        if file.hasSuffix(".csv") {
            records = try RecordFile.csv(text, file: file, columns: fields, required: "id")
        } else {
            let reader: TOMLReader
            do { reader = try TOMLReader(parsing: text, file: file) } catch { throw ValidationError("\(error)") }
            do { try reader.onlyKeys([], tables: ["products"], in: nil) } catch { throw ValidationError("\(error)") }
            records = try reader.records("products").enumerated().map { ("\(file) products[\($0.offset + 1)]: ", $0.element) }
        }
        return try records.map { place, f in
            if let unknown = f.keys.sorted().first(where: { !fields.contains($0) }) { throw ValidationError("\(place)no field \(unknown)") }
            func need(_ name: String) throws -> String {
                guard let value = f[name], !value.isEmpty else { throw ValidationError("\(place)\(name): required") }
                return value
            }
            return try product(
                id: try need("id"), type: try need("type"), name: try need("name"), price: try need("price"), currency: try need("currency"),
                group: f["group"], level: f["level"], durationDays: f["duration_days"], gives: f["gives"], app: f["app"], at: place)
        }
    }
}
