import Foundation
import OrderDomain
import Receipts

/// What a re-verification through the App Store Server API keeps with its attempt: Apple's
/// signed answers as it sent them, and the subscription's earlier periods the rules merged.
/// Written by `ServerAPIVerification`, read back by ``StoredAnswers`` for the receipt screen,
/// and both build the rules' content with ``content(transaction:statuses:history:)``, so the
/// screen shows what the rules saw.
struct ServerAPIAnswerRecord: Codable {
    var getTransactionInfo: TransactionInfoResponse
    var getAllSubscriptionStatuses: StatusResponse?
    /// Get Transaction History's periods of the same subscription; answers stored before this
    /// kept only their count.
    var subscriptionHistory: [AppleTransaction]?

    var json: String {
        get throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }
    }

    /// A stored body, or nil when it is not one (a verifyReceipt answer).
    init?(stored body: String) {
        guard let record = try? JSONDecoder().decode(Self.self, from: Data(body.utf8)) else { return nil }
        self = record
    }

    init(transactionInfo: String, statuses: String?, history: [AppleTransaction]?) throws {
        getTransactionInfo = try JSONDecoder().decode(TransactionInfoResponse.self, from: Data(transactionInfo.utf8))
        getAllSubscriptionStatuses = try statuses.map { try JSONDecoder().decode(StatusResponse.self, from: Data($0.utf8)) }
        subscriptionHistory = history
    }

    /// The rules' content: the transaction; for a subscription, its latest transactions and
    /// renewal intents from the statuses, then the periods of its history not among them.
    static func content(transaction: JWSTransaction, statuses: [ServerAPIClient.SubscriptionState]?, history: [AppleTransaction]?)
        -> AppleReceiptContent
    {
        var content = AppleReceiptContent(bundleId: transaction.bundleId ?? "", inApp: [AppleTransaction(transaction)].compactMap { $0 })
        let mine = (statuses ?? []).filter { $0.originalTransactionId == transaction.originalTransactionId }
        content.latestReceiptInfo = mine.compactMap { $0.transaction.flatMap(AppleTransaction.init) }
        content.pendingRenewals = mine.compactMap { $0.renewal.flatMap(AppleRenewalInfo.init) }
        let known = Set(content.latestReceiptInfo.map(\.transactionId))
        content.latestReceiptInfo += (history ?? []).filter {
            $0.originalTransactionId == transaction.originalTransactionId && !known.contains($0.transactionId)
        }
        return content
    }

    /// The content again from the stored answer, every JWS verified again; nil when the
    /// transaction's does not verify.
    func content(trust: TrustRoots) async -> AppleReceiptContent? {
        func verified<T: Decodable>(_ signed: String?, as type: T.Type) async -> T? {
            guard let signed else { return nil }
            return try? await JWS(compact: signed).verified(as: type, trust: trust, bundleId: nil)
        }
        guard let transaction = await verified(getTransactionInfo.signedTransactionInfo, as: JWSTransaction.self) else { return nil }
        var statuses: [ServerAPIClient.SubscriptionState] = []
        for last in getAllSubscriptionStatuses?.data.flatMap(\.lastTransactions) ?? [] {
            statuses.append(
                ServerAPIClient.SubscriptionState(
                    status: last.status, originalTransactionId: last.originalTransactionId,
                    transaction: await verified(last.signedTransactionInfo, as: JWSTransaction.self),
                    renewal: await verified(last.signedRenewalInfo, as: JWSRenewalInfo.self)))
        }
        return Self.content(transaction: transaction, statuses: statuses, history: subscriptionHistory)
    }
}
