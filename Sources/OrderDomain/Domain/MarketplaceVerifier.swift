/// One verifier for both stores: a stored submission goes to the store it was made in (a
/// Google Play purchase to Google, anything else to Apple). A store that is not configured
/// answers as a configuration problem, which waits for an operator (R4) and loses nothing.
public struct MarketplaceVerifier: ReceiptVerifier {
    public let apple: (any ReceiptVerifier)?
    public let googlePlay: (any ReceiptVerifier)?

    public init(apple: (any ReceiptVerifier)?, googlePlay: (any ReceiptVerifier)?) {
        self.apple = apple
        self.googlePlay = googlePlay
    }

    public func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?) async -> VerificationReport {
        await verify(evidence, claimedTransactionId: claimedTransactionId, app: nil)
    }

    public func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?, app: String) async -> VerificationReport {
        await verify(evidence, claimedTransactionId: claimedTransactionId, app: Optional(app))
    }

    private func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?, app: String?) async -> VerificationReport {
        let isPlay = evidence.kind == .googlePlay
        guard let verifier = isPlay ? googlePlay : apple else {
            var report = VerificationReport(
                method: isPlay ? .googlePlay : .verifyReceipt, environment: nil, appleStatus: nil, httpStatus: nil, sharedSecretSent: nil, latencyMs: 0)
            report.storeNotConfigured = true
            return report
        }
        guard let app else { return await verifier.verify(evidence, claimedTransactionId: claimedTransactionId) }
        return await verifier.verify(evidence, claimedTransactionId: claimedTransactionId, app: app)
    }
}
