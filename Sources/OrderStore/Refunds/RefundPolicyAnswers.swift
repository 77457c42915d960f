import OrderDomain

extension Refunds {
    /// Answers the open refund requests `policy` speaks for (`RefundPolicy/decide(_:productType:now:)`),
    /// each through ``answer(notificationId:answer:by:reason:at:send:)`` as
    /// `RefundPolicy/actor`: exactly once whichever process runs it (a request another
    /// is answering is left to it). Returns the answers sent or refused by Apple.
    public func applyPolicy(
        _ policy: RefundPolicy, at now: Millis = .now(), limit: Int = 100,
        send: @Sendable (_ transactionId: String, _ environment: AppleEnvironment, ConsumptionAnswer) async -> String?
    ) async throws -> [RefundAnswer] {
        let types = try await store.catalogue.types()
        var answered: [RefundAnswer] = []
        for request in try await requests(open: true, at: now, limit: limit) {
            let type = request.order.flatMap { types[$0.productId] }
            guard case .send(let answer, let why) = policy.decide(request, productType: type, now: now) else { continue }
            do {
                answered.append(
                    try await self.answer(
                        notificationId: request.notification.id, answer: answer, by: RefundPolicy.actor, reason: why, at: now, send: send))
            } catch AppleActionError.answeringElsewhere(_, _), AppleActionError.alreadyAnswered(_, _, _) {
                continue  // another process (or an operator) got there first
            }
        }
        return answered
    }
}
