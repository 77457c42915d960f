import ArgumentParser
import Foundation
import OrderStore

/// Options every command that opens a store shares.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "Configuration file (default: IAPDESK_CONFIG, then the XDG config dir, then ./iapdesk.toml).")
    var config: String?

    @Option(name: .long, help: "Store: a SQLite file path or postgres://user@host/db (overrides IAPDESK_DB and the file).")
    var db: String?

    func configuration() throws -> Configuration {
        var configuration = try Configuration.load(path: config)
        if let db { configuration.db = db }
        return configuration
    }

    /// Opens the store and runs `body`, closing the store afterwards whatever happens.
    func withStore<T>(_ body: (OrderStore, Configuration) async throws -> T) async throws -> T {
        let configuration = try configuration()
        let store = try await OrderStore.open(configuration.storeLocation, settings: configuration.storeSettings)
        for repair in store.repairs { FileHandle.standardError.write(Data("store: \(repair)\n".utf8)) }
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

/// The operator running the command: the OS user, with the role the store gives them.
/// Identity never comes from a flag; `--readonly` can only lower the role.
enum OperatorIdentity {
    static var osUser: String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "unknown"
    }
}
