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
        case .rejected where !overridesRejection(role):
            return .forbidden(action: .grantRejectedOrder, role: role)
        case .receiptReceived, .verifyRetry, .rejected:
            return role.mayAct ? nil : .forbidden(action: .grantOrders, role: role)
        }
    }

    /// Whether `role` may override a rejection, by granting the order or by having Apple's
    /// answer decide it again: only an admin, since a rejection undone is usually a wrong
    /// configuration fixed.
    public static func overridesRejection(_ role: Role) -> Bool { role == .admin }

    /// Why `role` may not ask Apple again about `order`, or nil if it may.
    public static func reverifyRefusal(_ order: Order, role: Role) -> StoreError? {
        guard role.mayAct else { return .forbidden(action: .reverifyOrders, role: role) }
        if order.state == .rejected, !overridesRejection(role) { return .forbidden(action: .reverifyRejectedOrder, role: role) }
        if order.state == .pendingPayment { return .noReceipt(orderId: order.orderId) }
        return nil
    }
}
