/// The operator actions on an order.
public enum OrderOperation: String, Sendable, CaseIterable {
    case grant, revoke, reverify, settle
}

/// Which actions an operator may take on an order: asked of the store in one place, so
/// the console's footer, the command line and the operations themselves agree.
public enum OrderPermissions {
    /// The actions `role` may take on `order` in its current state.
    public static func allowed(on order: Order, role: Role) -> [OrderOperation] {
        guard role.mayAct else { return [] }
        var allowed: [OrderOperation] = []
        if grantRefusal(order, role: role) == nil { allowed.append(.grant) }
        if order.state == .delivered { allowed.append(.revoke) }
        if reverifyRefusal(order, role: role) == nil { allowed.append(.reverify) }
        if order.state == .disputed { allowed.append(.settle) }
        return allowed
    }

    /// Why `role` may not grant `order` by hand, or nil if it may.
    public static func grantRefusal(_ order: Order, role: Role) -> StoreError? {
        switch order.state {
        case .delivered, .refunded, .pendingPayment, .verified:
            return .illegalTransition(orderId: order.orderId, from: order.state, to: .delivered)
        case .disputed:
            return .mustSettleDispute(orderId: order.orderId)
        case .rejected where role != .admin:
            return .forbidden(action: "grant a rejected order", role: role)
        case .receiptReceived, .verifyRetry, .rejected:
            return role.mayAct ? nil : .forbidden(action: "grant orders", role: role)
        }
    }

    /// Why `role` may not ask Apple again about `order`, or nil if it may. A rejection is
    /// decided again only at an admin's word (a wrong configuration undone).
    public static func reverifyRefusal(_ order: Order, role: Role) -> StoreError? {
        guard role.mayAct else { return .forbidden(action: "re-verify orders", role: role) }
        if order.state == .rejected, role != .admin { return .forbidden(action: "re-verify a rejected order", role: role) }
        if order.state == .pendingPayment { return .noReceipt(orderId: order.orderId) }
        return nil
    }
}
