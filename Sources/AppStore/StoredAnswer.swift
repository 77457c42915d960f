import Foundation
import OrderStore
import Receipts

/// Reads back an answer stored with a verification attempt (a verifyReceipt body, or the
/// Server API answers `ServerAPIVerification` keeps), for the console's receipt screen:
/// the same content the rules saw, with every JWS verified again.
public enum StoredAnswer {
    public static func content(_ body: String, trust: TrustRoots) async -> AppleReceiptContent? {
        let bytes = Array(body.utf8)
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
        guard let info = object["getTransactionInfo"] as? [String: Any] else {
            guard let answer = try? VerifyReceiptResponse.decode(bytes), answer.status == 0 || answer.status == 21006 else { return nil }
            return AppleReceiptContent(answer)
        }
        guard let signed = info["signedTransactionInfo"] as? String,
            let jws = try? await JWS(compact: signed).verified(as: JWSTransaction.self, trust: trust, bundleId: nil),
            let transaction = AppleTransaction(jws)
        else { return nil }
        var content = AppleReceiptContent(bundleId: jws.bundleId ?? "", inApp: [transaction])
        let statuses = (object["getAllSubscriptionStatuses"] as? [String: Any])?["data"] as? [[String: Any]] ?? []
        for last in statuses.flatMap({ $0["lastTransactions"] as? [[String: Any]] ?? [] })
        where last["originalTransactionId"] as? String == transaction.originalTransactionId {
            if let signed = last["signedTransactionInfo"] as? String,
                let latest = try? await JWS(compact: signed).verified(as: JWSTransaction.self, trust: trust, bundleId: nil),
                let mapped = AppleTransaction(latest)
            {
                content.latestReceiptInfo.append(mapped)
            }
            if let signed = last["signedRenewalInfo"] as? String,
                let renewal = try? await JWS(compact: signed).verified(as: JWSRenewalInfo.self, trust: trust, bundleId: nil),
                let mapped = AppleRenewalInfo(renewal)
            {
                content.pendingRenewals.append(mapped)
            }
        }
        return content
    }
}
