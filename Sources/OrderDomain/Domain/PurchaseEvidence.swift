import Foundation

/// Which kind of proof of payment a submission holds, kept from where it is learned (the
/// intake knows which field it read) so that nothing later guesses it from the text.
public enum EvidenceKind: String, Sendable, Codable, CaseIterable {
    /// A base64 app receipt (StoreKit 1), which verifyReceipt reads.
    case appReceipt = "app_receipt"
    /// A StoreKit 2 signed transaction (a compact JWS), which the Server API confirms by id.
    case signedTransaction = "signed_transaction"
    /// A Google Play purchase token with its package and product.
    case googlePlay = "google_play"
}

/// What was sent as proof of payment, typed: what a verifier sends where.
public enum PurchaseEvidence: Sendable, Equatable {
    case appReceipt(String)
    case signedTransaction(String)
    case googlePlay(PlaySubmission)

    public var kind: EvidenceKind {
        switch self {
        case .appReceipt: .appReceipt
        case .signedTransaction: .signedTransaction
        case .googlePlay: .googlePlay
        }
    }

    /// The text kept as the submission's receipt data (R1: stored as it came).
    public var storedText: String {
        get throws {
            switch self {
            case .appReceipt(let text), .signedTransaction(let text): text
            case .googlePlay(let purchase): try purchase.storedText
            }
        }
    }

    /// A stored submission read back: its kind column says what its text is.
    /// - Throws: ``StoreError/corrupt(_:)`` for a Google Play submission whose text does not decode.
    public init(kind: EvidenceKind, storedText: String) throws {
        switch kind {
        case .appReceipt: self = .appReceipt(storedText)
        case .signedTransaction: self = .signedTransaction(storedText)
        case .googlePlay: self = .googlePlay(try PlaySubmission(storedText: storedText))
        }
    }
}
