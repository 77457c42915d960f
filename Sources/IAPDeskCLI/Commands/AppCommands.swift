import ArgumentParser
import OrderDomain
import OrderStore
import Presentation

/// `iapdesk app`: the games one store serves. The configuration gives each its Apple
/// credentials (`[[apps]]`); the store records which apps it serves, so a configuration
/// for another studio's game is refused rather than mixing two games' orders.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "The apps (games) this store serves: list, add (admins, audited).", subcommands: [List.self, Add.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every app the store serves, with how many products each sells (the default).")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let apps = try await store.withStore { store, _ in try await store.catalogue.apps() }
            print(Output.table(ProductPresentation.appListing(), apps))
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Add an app to the store, or name one it has (admins), audited. Give it credentials ([[apps]], or [google_play] package_names) and restart serve."
        )
        @OptionGroup var store: StoreOptions
        @Argument(help: "Its bundle id (App Store) or package name (Google Play), as the store signs it into purchases.") var bundleId: String
        @Option(name: .customLong("store"), help: "The store it sells in: apple (when not given) or google.") var marketplace: Marketplace?
        @Option(help: "The game it belongs to: the id of an app whose products it sells too (default: a game of its own).") var game: String?
        @Option(help: "What support calls it (any script).") var name: String?
        @Option(help: "Its Apple ID in App Store Connect (appAppleId).") var appleAppId: Int64?
        @Option(help: "Why, for the audit log.") var reason: String

        func run() async throws {
            let app = StoreApp(bundleId: bundleId, marketplace: marketplace ?? .appStore, game: game, name: name, appleAppId: appleAppId)
            try await store.withStore { store, _ in
                try await store.catalogue.addApp(app, by: try await store.operators.actor(forUser: OperatorIdentity.current), reason: reason)
            }
            print(Output.safe(ProductPresentation.appAdded(app)))
        }
    }
}
