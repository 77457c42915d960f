import ArgumentParser
import Foundation
import OrderDomain
import OrderStore
import Presentation

/// Options every command that opens a store shares.
package struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "Configuration file (default: IAPDESK_CONFIG, then the XDG config dir, then ./iapdesk.toml).")
    package var config: String?

    @Option(name: .long, help: "Store: a SQLite file path or postgres://user@host/db (overrides IAPDESK_DB and the file).")
    package var db: String?

    package init() {}

    package func configuration() throws -> Configuration {
        var configuration = try Configuration.load(path: config)
        if let db { configuration.db = db }
        return configuration
    }

    /// Opens the store and runs `body`, closing the store afterwards whatever happens.
    package func withStore<T>(_ body: (OrderStore, Configuration) async throws -> T) async throws -> T {
        var configuration = try configuration()
        let store = try await OrderStore.open(configuration.storeLocation, settings: configuration.storeSettings)
        // Apple is asked about the store's app: the configured one, or the one the store recorded.
        configuration.bundleId = store.settings.bundleId
        for repair in store.repairs { FileHandle.standardError.write(Data("store: \(ErrorWords.text(repair))\n".utf8)) }
        do {
            let result = try await body(store, configuration)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}

/// The operator running the command: who they are, with the role the store gives them.
/// Identity never comes from a flag; `--readonly` can only lower the role.
package enum OperatorIdentity {
    /// The user sudo ran us for (the SSH recipe: an operator's login runs iapdesk as the
    /// service account that alone can read the store's credentials), else the OS user.
    /// Only someone who can open the store with those credentials can claim a name this
    /// way, and they hold everything already; a PostgreSQL login the database caps acts
    /// as its own name whatever this says (`OrderStore.operators.actor(forUser:)`).
    package static var current: String {
        let environment = ProcessInfo.processInfo.environment
        if let invoker = environment["SUDO_USER"], !invoker.isEmpty, invoker != osUser { return invoker }
        return osUser
    }

    private static var osUser: String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "unknown"
    }
}
