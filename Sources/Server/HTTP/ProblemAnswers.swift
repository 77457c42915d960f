import Hummingbird

/// Every error a route throws becomes its problem document here, in one place
/// (``Problem/from(_:)``), inside the metrics middleware so that a 4xx or 503 is counted with
/// its status like any answer.
struct ProblemAnswers: RouterMiddleware {
    func handle(_ request: Request, context: ServeContext, next: (Request, ServeContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return Problem.from(error).response
        }
    }
}

extension Problem: HTTPResponseError {
    func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
