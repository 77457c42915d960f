import Foundation
import OrderDomain
import Receipts
import StoreHTTP

/// The domain's `ReceiptVerifier` over Apple (or the simulator): the App Store Server API
/// when the client named a transaction and a key is configured, verifyReceipt otherwise.
public final class AppleVerifier: ReceiptVerifier {
    public let settings: AppStoreSettings
    let http: StoreHTTP
    public let verifyReceipt: VerifyReceiptClient
    /// Both clients act as the app ``ActingApp`` names, with its credentials.
    public let serverAPI: ServerAPIClient?

    public init(settings: AppStoreSettings) {
        self.settings = settings
        let http = StoreHTTP(timeout: settings.requestTimeout, maxRetryAfter: settings.maxRetryAfter, maxConnections: settings.maxConnections)
        self.http = http
        var endpoints: [String: VerifyReceiptEndpoints] = [:]
        var keys: [String: ServerAPICredentials] = [:]
        for app in settings.otherApps {
            endpoints[app.bundleId] = app.verifyReceipt
            keys[app.bundleId] = app.serverAPI
        }
        verifyReceipt = VerifyReceiptClient(http: http, endpoints: settings.verifyReceipt, otherApps: endpoints)
        serverAPI = settings.serverAPI.map {
            ServerAPIClient(http: http, credentials: $0, bundleId: settings.bundleId, trust: settings.trust, otherApps: keys)
        }
    }

    /// Closes the connection pool; call once when done.
    public func shutdown() async { await http.shutdown() }

    /// A verifier for the duration of `body`, shut down afterwards whatever happens.
    public static func using<T>(_ settings: AppStoreSettings, _ body: (AppleVerifier) async throws -> T) async throws -> T {
        let verifier = AppleVerifier(settings: settings)
        do {
            let result = try await body(verifier)
            await verifier.shutdown()
            return result
        } catch {
            await verifier.shutdown()
            throw error
        }
    }

    public func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?, app: String) async -> VerificationReport {
        await ActingApp.$bundleId.withValue(app) { await verify(evidence, claimedTransactionId: claimedTransactionId) }
    }

    public func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?) async -> VerificationReport {
        // Apple's evidence is the text as it came; only a Google Play purchase is encoded.
        let data: String
        do {
            data = try evidence.storedText
        } catch {
            return VerificationReport(environment: nil, appleStatus: nil, httpStatus: nil, transportError: "the evidence could not be read: \(error)")
        }
        guard let claimedTransactionId, let serverAPI else { return await verifyReceipt.verify(receiptData: data) }
        let report = await ServerAPIVerification(client: serverAPI, first: settings.verifyReceipt.first).report(transactionId: claimedTransactionId)
        // Neither environment knows the id the client named (R3): an app receipt may still
        // prove the purchase, so Apple is asked about it before anything is decided (a signed
        // transaction is no receipt verifyReceipt can read).
        guard report.appleStatus == ServerAPIFailure.transactionNotFound, evidence.kind == .appReceipt else { return report }
        var fallback = await verifyReceipt.verify(receiptData: data)
        fallback.latencyMs += report.latencyMs
        return fallback
    }
}

/// Re-verification of one transaction through the Server API, in the shape of a
/// verifyReceipt report so that the same rules apply: Get Transaction Info (production,
/// then sandbox when production does not know it: R2's counterpart), and for
/// auto-renewables Get All Subscription Statuses for the renewal intent R8 needs and Get
/// Transaction History for the periods before it.
struct ServerAPIVerification {
    let client: ServerAPIClient
    let first: AppleEnvironment

    func report(transactionId: String) async -> VerificationReport {
        var environment = first
        var latency = 0
        var info = await client.transactionInfo(transactionId, in: environment)
        if case .failure(let failure) = info, failure.isNotFound {
            latency += failure.latencyMs
            environment = first == .production ? .sandbox : .production
            info = await client.transactionInfo(transactionId, in: environment)
        }
        let answer: ServerAPIClient.Answer<JWSTransaction>
        switch info {
        case .failure(let failure): return Self.report(failure, environment: environment, latency: latency)
        case .success(let success): answer = success
        }
        latency += answer.latencyMs
        let transaction = answer.value
        if let reported = transaction.environment.flatMap(AppleEnvironment.init(rawValue:)) { environment = reported }
        var statuses: ServerAPIClient.Answer<[ServerAPIClient.SubscriptionState]>?
        var history: [AppleTransaction]?
        if transaction.productType == .autoRenewable {
            switch await client.subscriptionStatuses(transactionId, in: environment) {
            case .failure(let failure): return Self.report(failure, environment: environment, latency: latency)
            case .success(let answer):
                latency += answer.latencyMs
                statuses = answer
            }
            // R8 weighs the owner's periods before this one (their end, their refunds): the
            // statuses carry only the latest, so the subscription's history comes too.
            switch await client.allPages({ await client.transactionHistory(transactionId, in: environment, revision: $0) }) {
            case .failure(let failure): return Self.report(failure, environment: environment, latency: latency)
            case .success(let signed):
                history = signed.filter { $0.originalTransactionId == transaction.originalTransactionId }.compactMap(AppleTransaction.init)
            }
        }
        let content = ServerAPIAnswerRecord.content(transaction: transaction, statuses: statuses?.value, history: history)
        let body: String
        do {
            body = try ServerAPIAnswerRecord(transactionInfo: answer.body, statuses: statuses?.body, history: history).json
        } catch {
            body = answer.body  // Apple's answer verified but did not re-read: kept verbatim
        }
        return VerificationReport(
            method: .serverAPI, environment: environment, appleStatus: 0, httpStatus: 200, latencyMs: latency, body: body, content: content)
    }

    static func report(_ failure: ServerAPIFailure, environment: AppleEnvironment, latency: Int) -> VerificationReport {
        VerificationReport(
            method: .serverAPI, environment: environment, appleStatus: failure.errorCode, httpStatus: failure.httpStatus,
            transportError: failure.transportError, latencyMs: latency + failure.latencyMs, body: failure.body)
    }
}
