/// R9: a refunded or revoked purchase takes back what it delivered [S3].
public enum RefundRule {
    /// When Apple cancelled `transaction`, or nil. Receipts carry `cancellation_date_ms`, JWS
    /// `revocationDate`; both land in ``AppleTransaction/cancellationDate``. An upgrade's
    /// `is_upgraded` period carries a cancellation date that is no refund. Apple never puts
    /// a cancellation on a consumable in a receipt, so there only a notification (REFUND)
    /// tells, and a date found there is not taken as one. A partial refund of a pack takes
    /// back its share, not the purchase (``NotificationEffect/partialRefund(share:)``).
    public static func cancellation(of transaction: AppleTransaction, type: ProductType, fromJWS: Bool = false) -> Millis? {
        guard let date = transaction.cancellationDate, !transaction.isUpgraded else { return nil }
        if transaction.isPartlyRefunded, type != .autoRenewable { return nil }
        if type == .consumable, !fromJWS { return nil }
        return date
    }

    /// Only a delivered order can be refunded; anything else was never given.
    public static func refundApplies(to state: OrderState) -> Bool {
        state == .delivered
    }
}
