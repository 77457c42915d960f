/// R9: a refunded or revoked purchase takes back what it delivered [S3].
public enum RefundRule {
    /// Receipts carry `cancellation_date_ms`; JWS transactions `revocationDate`; both land
    /// in ``AppleTransaction/cancellationDate``. An empty date means "not cancelled".
    public static func isRefunded(_ transaction: AppleTransaction) -> Bool {
        transaction.cancellationDate != nil
    }

    /// Only a delivered order can be refunded; anything else was never given.
    public static func refundApplies(to state: OrderState) -> Bool {
        state == .delivered
    }
}
