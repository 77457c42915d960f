import Foundation
import Receipts

/// verifyReceipt as Apple answers it, over the ledger: the receipt must be one the
/// simulator signed, the environment rule of R2 applies (21007 / 21008), and the answer
/// carries the ledger's current state (refunds, renewals, auto-renew) in Apple's JSON shape,
/// numbers as strings included.
public struct VerifyReceiptService: Sendable {
    public let ledger: Ledger
    let trust: TrustRoots
    let sharedSecret: String?

    public init(ledger: Ledger, authority: CertificateAuthority, sharedSecret: String? = nil) {
        self.ledger = ledger
        trust = TrustRoots(apple: [authority.root])
        self.sharedSecret = sharedSecret
    }

    /// The JSON answer for a request body sent to the production or the sandbox endpoint.
    public func answer(body: [UInt8], sandboxEndpoint: Bool) async -> [String: Any] {
        guard let request = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            return ["status": 21000]
        }
        guard let receiptData = request["receipt-data"] as? String,
            let decoded = try? AppReceiptDecoder.decode(base64: receiptData)
        else {
            return ["status": 21002]
        }
        guard await decoded.verifySignature(trust: trust).isVerified else { return ["status": 21003] }
        let receipt = decoded.receipt
        let isSandboxReceipt = receipt.receiptType != "Production"
        if isSandboxReceipt && !sandboxEndpoint { return ["status": 21007] }
        if !isSandboxReceipt && sandboxEndpoint { return ["status": 21008] }
        let hasSubscriptions = receipt.inAppPurchases.contains { $0.productType == SimulatedPurchase.Kind.autoRenewable.rawValue }
        if let sharedSecret, hasSubscriptions, request["password"] as? String != sharedSecret {
            return ["status": 21004]
        }

        var inApp: [[String: Any]] = []
        var originals: [String] = []
        for purchase in receipt.inAppPurchases {
            guard let id = purchase.transactionId, let current = await ledger.purchase(transactionId: id) else { continue }
            inApp.append(Self.json(current))
            if current.kind == .autoRenewable, !originals.contains(current.originalTransactionId) {
                originals.append(current.originalTransactionId)
            }
        }
        var answer: [String: Any] = [
            "status": 0, "environment": sandboxEndpoint ? "Sandbox" : "Production",
            "receipt": [
                "receipt_type": receipt.receiptType ?? "Production", "bundle_id": receipt.bundleId ?? "",
                "application_version": receipt.appVersion ?? "", "in_app": inApp,
                "receipt_creation_date_ms": Self.milliseconds(receipt.receiptCreationDate ?? Date()),
                "receipt_creation_date": Self.appleDate(receipt.receiptCreationDate ?? Date()),
            ] as [String: Any],
            "latest_receipt": receiptData,
        ]
        if !originals.isEmpty {
            var latest: [[String: Any]] = []
            var pending: [[String: Any]] = []
            for original in originals {
                let chain = await ledger.chain(originalTransactionId: original)
                latest += chain.reversed().map(Self.json)  // newest first, as Apple sends it
                if let last = chain.last {
                    pending.append([
                        "original_transaction_id": original, "product_id": last.productId,
                        "auto_renew_product_id": last.productId, "auto_renew_status": last.autoRenew ? "1" : "0",
                    ])
                }
            }
            answer["latest_receipt_info"] = latest
            answer["pending_renewal_info"] = pending
        }
        return answer
    }

    static func json(_ p: SimulatedPurchase) -> [String: Any] {
        var row: [String: Any] = [
            "quantity": "1", "product_id": p.productId, "transaction_id": p.transactionId,
            "original_transaction_id": p.originalTransactionId,
            "purchase_date": appleDate(p.purchaseDate), "purchase_date_ms": milliseconds(p.purchaseDate),
            "original_purchase_date": appleDate(p.purchaseDate), "original_purchase_date_ms": milliseconds(p.purchaseDate),
            "is_trial_period": "false", "in_app_ownership_type": "PURCHASED",
        ]
        if let expires = p.expiresDate {
            row["expires_date"] = appleDate(expires)
            row["expires_date_ms"] = milliseconds(expires)
        }
        // Apple never shows a consumable's refund in a receipt: only REFUND notifications tell.
        if let cancelled = p.cancellationDate, p.kind != .consumable {
            row["cancellation_date"] = appleDate(cancelled)
            row["cancellation_date_ms"] = milliseconds(cancelled)
            row["cancellation_reason"] = String(p.cancellationReason ?? 0)
        }
        if let line = p.webOrderLineItemId { row["web_order_line_item_id"] = String(line) }
        if let token = p.appAccountToken { row["app_account_token"] = token }
        return row
    }

    static func milliseconds(_ date: Date) -> String { String(date.milliseconds) }

    /// `2020-07-14 19:36:40 Etc/GMT`.
    static func appleDate(_ date: Date) -> String {
        let iso = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)).formatted(.iso8601)
        return iso.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " Etc/GMT")
    }
}
