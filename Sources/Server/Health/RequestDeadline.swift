import Hummingbird
import OrderDomain
import OrderStore

/// Every request's store calls share one deadline (``CallBudget``): a request that cannot
/// reach the store answers 503 with `Retry-After` within it, whatever number of calls it
/// makes, instead of one deadline per call. A request that asks to wait (`?wait=`, for a
/// verdict or for events) has its wait added: waiting by choice is not the store being slow.
struct RequestDeadline<Context: RequestContext>: RouterMiddleware {
    let deadline: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let wait = (try? IntakeRoutes.waitSeconds(request)) ?? .zero
        return try await CallBudget.within(deadline + wait) { try await next(request, context) }
    }
}
