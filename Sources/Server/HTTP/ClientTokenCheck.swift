import Hummingbird

/// The game servers' routes answer only a known bearer token (``ClientTokens``): the
/// caller's name goes into the context for the handlers (idempotency keys, consumption
/// reports name it); anyone else gets a 401 problem before any handler runs.
struct ClientTokenCheck: RouterMiddleware {
    let tokens: ClientTokens

    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        guard let client = tokens.client(authorization: request.headers[.authorization]) else { throw Problem.unauthorized }
        var context = context
        context.client = client
        return try await next(request, context)
    }
}
