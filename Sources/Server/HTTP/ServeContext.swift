import Hummingbird

/// The request context of `serve`'s routes: Hummingbird's, plus the game server whose
/// bearer token ``ClientTokenCheck`` accepted on the routes that need one.
struct ServeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The game server's name from the token file; nil on routes anyone may call.
    var client: String?

    init(source: Source) { coreContext = .init(source: source) }

    /// The game server that called; only on routes behind ``ClientTokenCheck``.
    func requireClient() throws -> String {
        guard let client else { throw Problem.unauthorized }
        return client
    }
}
