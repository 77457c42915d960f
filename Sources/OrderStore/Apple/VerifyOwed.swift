import OrderDomain

extension AppleAnswers {
    /// The worker's verify job for `orderId`: asks Apple only if the order still waits for
    /// Apple's word (a receipt not yet verified, a retry due, a verified order never
    /// delivered, a hand delivery not yet confirmed). Nil when nothing is owed any more
    /// (delivered meanwhile, settled by an operator): the job is simply done.
    public func verifyIfOwed(orderId: String, using verifier: any ReceiptVerifier) async throws -> VerificationOutcome? {
        let order = try await store.read { sql in try await sql.requireOrder(orderId) }
        guard order.awaitsVerification else { return nil }
        // The worker holds this order's verify job under its lease already.
        return try await store.askApple(orderId: orderId, using: verifier, by: .system)
    }
}
