import AppStore
import ArgumentParser
import OrderDomain
import OrderStore

extension StoreOptions {
    /// The store, the operator at the keyboard, and the App Store Server API client, for a
    /// command that acts on Apple's side (`what` names it when the key is missing).
    func withAppleActions<T>(_ what: String, _ body: (OrderStore, Operator, ServerAPIClient) async throws -> T) async throws -> T {
        try await withStore { store, configuration in
            let actor = try await store.operators.actor(forUser: OperatorIdentity.current)
            return try await AppleVerifier.using(try configuration.appStoreSettings()) { verifier in
                guard let client = verifier.serverAPI else {
                    throw ValidationError("\(what) needs the App Store Server API key ([apple] key_file, key_id, issuer_id)")
                }
                return try await body(store, actor, client)
            }
        }
    }
}
