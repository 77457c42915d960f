/// The life of an order.
///
/// Transitions are checked by ``canMove(to:)``; the store refuses any other move, so an
/// illegal transition cannot be made through its API.
public enum OrderState: String, Sendable, CaseIterable, Codable, Comparable {
    case pendingPayment = "pending_payment"
    case receiptReceived = "receipt_received"
    case verifyRetry = "verify_retry"
    case verified
    case disputed
    case delivered
    case rejected
    case refunded

    /// Paid but not delivered: an order in one of these states for longer than the
    /// threshold is *stuck* and shows in the stuck queue.
    public var isPaidUndelivered: Bool {
        switch self {
        case .receiptReceived, .verifyRetry, .verified, .disputed: true
        default: false
        }
    }

    /// The moves the rules and operators may make. Manual grants (to `delivered`) are
    /// allowed from every paid state but `disputed`, which only settling delivers (R8);
    /// from `rejected` only an admin may grant or re-verify, which the operations check
    /// separately because it depends on the role, not the state.
    public func canMove(to next: OrderState) -> Bool {
        switch (self, next) {
        case (.pendingPayment, .receiptReceived): true
        case (.receiptReceived, .verified), (.receiptReceived, .verifyRetry), (.receiptReceived, .rejected): true
        case (.verifyRetry, .verified), (.verifyRetry, .verifyRetry), (.verifyRetry, .rejected): true
        case (.verified, .delivered), (.verified, .disputed), (.verified, .rejected): true
        case (.disputed, .delivered), (.disputed, .rejected): true
        case (.receiptReceived, .disputed), (.verifyRetry, .disputed): true  // an attached orphan's renewal (R8)
        case (.receiptReceived, .delivered), (.verifyRetry, .delivered): true  // operator grant
        case (.rejected, .delivered): true  // admin grant
        case (.rejected, .verified), (.rejected, .verifyRetry): true  // admin re-verification of a rejection
        case (.refunded, .delivered): true  // R9: Apple reversed the refund
        case (.delivered, .refunded): true  // R9
        case (.delivered, .rejected): true  // operator revoke of a delivery
        default: false
        }
    }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    public static func < (lhs: OrderState, rhs: OrderState) -> Bool { lhs.rank < rhs.rank }
}
