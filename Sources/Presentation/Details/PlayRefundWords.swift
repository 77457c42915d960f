/// What asking Google for a refund came to, said once for the console and the CLI.
public enum PlayRefundWords {
    public static func requested(_ orderId: String, googleOrderId: String?, revoke: Bool) -> String {
        let google = googleOrderId ?? "the order"
        return revoke
            ? "Google refunds \(google) and takes access back; \(orderId) is revoked here when Google's voided notice arrives"
            : "Google refunds \(google); the purchase stays (access kept), \(orderId) stays delivered"
    }
}
