import OrderDomain
import OrderStore
import Presentation

/// Apple's order id (`MK…`) typed in the console: `:order MK…` and `/MK…` find it here, the
/// same lookup `iapdesk order find MK…` makes (``Orders/findAppleOrder(_:asking:)``).
enum AppleOrderSearch {
    /// Where the id leads. Without the App Store Server API key only invoices learned
    /// before are found; Apple is not asked, and the finding says why.
    static func find(_ appleOrderId: String, session: ConsoleSession, askingApple: Bool = true) async throws -> AppleOrderFinding {
        let apple = session.appleActions
        return try await session.store.orders.findAppleOrder(appleOrderId) { id, environment in
            guard askingApple else { return .failed("not asked again on a refresh") }
            guard let apple else { return .failed(AppleInvoicePresentation.needsServerAPI) }
            return await apple.invoice(id, environment: environment)
        }
    }

    /// The screen a finding opens: the order, when the invoice's purchases all lead to one
    /// order that claimed them; else the invoice with where each purchase leads; nothing
    /// (the finding's summary is the message) when Apple gave nothing to show.
    static func screen(for finding: AppleOrderFinding) -> (any ConsoleScreen)? {
        guard case .found(let invoice) = finding else { return nil }
        let allClaimed = invoice.purchases.allSatisfy { if case .claimed = $0.lead { true } else { false } }
        if allClaimed, invoice.orders.count == 1, let order = invoice.orders.first { return OrderDetailScreen(orderId: order.orderId) }
        return Lists.invoice(invoice.appleOrderId)
    }
}
