import ArgumentParser
import OrderDomain
import OrderStore
import Presentation

struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Read a game account as support does.", subcommands: [Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "An account: notes, the accounts its Apple Account bought with, flags, orders, grants, subscriptions (the console's account screen).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The game account id.") var id: String

        func run() async throws {
            let (detail, production) = try await store.withStore { store, _ in (try await store.accounts.detail(id), store.settings.isProduction) }
            print("account \(Output.safe(id))")
            print(Output.detail(AccountPresentation.sections(detail, storeIsProduction: production)))
        }
    }
}
