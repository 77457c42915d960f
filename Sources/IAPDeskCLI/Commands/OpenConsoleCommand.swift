import AppStore
import ArgumentParser
import Console
import Foundation
import GooglePlay
import OrderDomain
import OrderStore
import Presentation
import Receipts
import Terminal

/// `iapdesk console`: the ncurses console on the configured store, as the OS user with the
/// role the store gives them (`--readonly` can only lower it).
struct OpenConsoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "console", abstract: "Open the console on the configured store.")
    @OptionGroup var store: StoreOptions
    @Flag(help: "Offer no action that changes anything, whatever your role.") var readonly = false
    @Option(help: "Theme name or .toml path (default: console.theme / IAPDESK_THEME).") var theme: String?

    func run() async throws {
        try await store.withStore { store, configuration in
            let actor = try await store.operators.actor(forUser: OperatorIdentity.current, readOnly: readonly)
            let google = try configuration.googlePlay.settings(source: configuration.source).map(PlayClient.init(settings:))
            do {
                try await AppleVerifier.using(try configuration.appStoreSettings()) { verifier in
                    try await ConsoleRunner.run(
                        store: store, actor: actor, theme: theme ?? configuration.theme, aliases: configuration.consoleAliases,
                        storeLabel: configuration.storeLocation.description + (store.settings.apps.count > 1 ? " · \(store.settings.apps.count) apps" : ""),
                        verifier: MarketplaceVerifier(apple: verifier, googlePlay: google.map(PlayVerifier.init(client:))),
                        appleActions: verifier.serverAPI, playActions: google,
                        trust: try configuration.trust())
                }
            } catch {
                await google?.shutdown()
                throw error
            }
            await google?.shutdown()
        }
    }
}

/// Starts the terminal, runs the console until q or Ctrl-C, and always restores the terminal.
package enum ConsoleRunner {
    package static func run(
        store: OrderStore, actor: Operator, theme: String, aliases: [String: String] = [:], storeLabel: String, verifier: (any ReceiptVerifier)?,
        appleActions: (any AppleActions)?, playActions: (any PlayActions)? = nil, trust: TrustRoots, notes: [(String, String)] = [],
        visit: DemoVisit? = nil
    ) async throws {
        let (palette, themeError) = ThemeLoader.loadOrFallback(theme)
        let terminal = try NcursesTerminal.start()
        let session = ConsoleSession(
            store: store, actor: actor, theme: palette, storeLabel: storeLabel, verifier: verifier, appleActions: appleActions, playActions: playActions,
            trust: trust, answers: StoredAnswers(trust: trust), notes: notes,
            visit: visit)
        session.aliases = aliases
        let app = ConsoleApp(session: session, device: terminal)
        if let themeError { app.show("theme: \(themeError); using the default", isError: true) }
        if let repair = store.repairs.first { app.show("store: \(ErrorWords.text(repair))", isError: false) }
        await app.run()
        terminal.stop()
        if let ending = app.endedBecause { print(ending) }
    }
}
