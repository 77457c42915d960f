/// The kinds of record a lookup can miss, in the words ``StoreError/notFound(kind:id:)``
/// says them: a typed key, so a caller (the intake's 404, a test) matches the kind, not
/// a word.
public enum RecordKind: String, Sendable, Equatable {
    case order, account, subscription, transaction, product, notification, event
    case subscriptionExtension = "extension"
    case massExtension = "extension request"
    case refundAnswer = "refund answer"
    case refundRequest = "refund request for transaction"
    case purchaseToken = "Google Play purchase token"
}
