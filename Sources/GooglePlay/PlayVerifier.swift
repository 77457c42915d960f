import Foundation
import OrderDomain

/// The domain's `ReceiptVerifier` over Google Play: a submitted purchase token is read from
/// the Play Developer API (a one-time product's `productsv2`, a subscription's
/// `subscriptionsv2`) into a report the rules read as they read Apple's. A license tester's
/// purchase is reported in the sandbox environment, so R2 flags it in a production store.
public final class PlayVerifier: ReceiptVerifier {
    public let client: PlayClient

    public init(client: PlayClient) { self.client = client }

    public func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?) async -> VerificationReport {
        guard case .googlePlay(let submission) = evidence else { return Self.refused("not a Google Play purchase submission") }
        guard client.settings.packageNames.contains(submission.packageName) else {
            return Self.refused("\(submission.packageName) is not one of this studio's packages ([google_play] packages)")
        }
        return await report(purchaseToken: submission.purchaseToken, package: submission.packageName)
    }

    /// Google's answer about `token`: the kind `subscription` says first (a one-time product
    /// when unknown), the other when Google says the token is not of that kind.
    public func report(purchaseToken token: String, package: String, subscription: Bool? = nil) async -> VerificationReport {
        let asSubscription = subscription ?? false
        let first = await ask(token: token, package: package, subscription: asSubscription)
        guard case .failure(let failure) = first.answer, failure.httpStatus == 400 || failure.httpStatus == 404 else { return first.report }
        var second = await ask(token: token, package: package, subscription: !asSubscription)
        second.report.latencyMs += first.report.latencyMs
        if case .failure(let other) = second.answer, other.httpStatus == 400 { return first.report }
        return second.report
    }

    private func ask(token: String, package: String, subscription: Bool) async -> (answer: Result<PlayAnswerBody, PlayCallFailure>, report: VerificationReport)
    {
        let answer =
            subscription
            ? await client.subscriptionPurchase(package: package, token: token) : await client.productPurchase(package: package, token: token)
        switch answer {
        case .failure(let failure):
            var report = VerificationReport(
                method: .googlePlay, environment: nil, appleStatus: nil, httpStatus: failure.httpStatus, sharedSecretSent: nil,
                transportError: failure.transportError ?? (failure.httpStatus == nil ? failure.reason : nil), latencyMs: failure.latencyMs)
            report.playError = failure.reason
            return (answer, report)
        case .success(let success):
            let facts =
                subscription
                ? try? PlayAnswerReader.subscriptionFacts(success.body, token: token, package: package)
                : try? PlayAnswerReader.productFacts(success.body, token: token, package: package)
            var report = VerificationReport(
                method: .googlePlay, environment: facts.map { $0.isTest ? .sandbox : .production }, appleStatus: nil, httpStatus: 200,
                sharedSecretSent: nil, latencyMs: success.latencyMs, body: String(decoding: success.body, as: UTF8.self),
                content: facts.map { PlayAnswerReader.content($0) })
            report.play = facts
            return (answer, report)
        }
    }

    /// A submission Google is never asked about: final, as Google's 400 would be.
    static func refused(_ why: String) -> VerificationReport {
        var report = VerificationReport(method: .googlePlay, environment: nil, appleStatus: nil, httpStatus: 400, sharedSecretSent: nil)
        report.playError = why
        return report
    }
}
