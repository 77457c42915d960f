import OrderDomain

/// Orders as rows: the home list, `order list`/`order find`, the stuck queue and the R7
/// conflicts.
public enum OrderListings {
    /// The state as a row shows it: `!` when it waits on an operator, `REPLAY` for a receipt
    /// another order holds (R7), `SBX` for a sandbox purchase in a production store (R2).
    public static func stateText(_ order: Order, storeIsProduction: Bool) -> String {
        order.state.rawValue + (order.needsOperator ? "!" : "") + (order.replayFlag ? " REPLAY" : "")
            + (EnvironmentRule.isFlaggedSandbox(order.environment, storeIsProduction: storeIsProduction) ? " SBX" : "")
    }

    static func stateCell(_ order: Order, storeIsProduction: Bool) -> Cell {
        Cell(stateText(order, storeIsProduction: storeIsProduction), .state(order.state))
    }

    /// `orders` are the rows it will show: a STORE column when Google Play's are among them.
    public static func orders(storeIsProduction: Bool, for orders: [Order] = []) -> Listing<Order> {
        let store = orders.contains { $0.marketplace != .appStore } ? [ListColumn<Order>("STORE", width: 5) { Cell($0.marketplace.shortName) }] : []
        return Listing(
            title: "Orders", empty: "No orders.",
            columns: [
                ListColumn("ORDER", width: 14) { Cell($0.orderId) },
                ListColumn("ACCOUNT", width: 12, flexible: true) { Cell($0.accountId) },
                ListColumn("PRODUCT", width: 11) { Cell($0.productId) },
                ListColumn("STATE", width: 16) { stateCell($0, storeIsProduction: storeIsProduction) },
            ] + store + [
                ListColumn("ENV", width: 10, optional: true) { Cell($0.environment?.rawValue, .muted) },
                ListColumn("TRANSACTION", width: 17, optional: true) { Cell($0.transactionId, .muted) },
                ListColumn("CREATED", width: 16) { .time($0.createdAt) },
            ])
    }

    /// `items` are the rows it will show: with Google Play's among them, how long is left
    /// before Google refunds each (`now` says it).
    public static func stuck(storeIsProduction: Bool, for items: [StuckOrder] = [], now: Millis = .now()) -> Listing<StuckOrder> {
        let play = items.contains { $0.order.marketplace == .googlePlay }
        let acknowledgeBy = ListColumn<StuckOrder>("ACK LEFT", width: 8) { stuck in
            guard let by = stuck.acknowledgeBy else { return Cell(nil) }
            return by > now ? Cell(.age(by - now), by - now < .hours(24) ? .alert : .plain) : Cell("PASSED", .alert)
        }
        return Listing(
            title: "Stuck", empty: "Nothing is stuck.",
            columns: [
                ListColumn("ORDER", width: 14) { Cell($0.order.orderId) },
                ListColumn("ACCOUNT", width: 12, optional: true) { Cell($0.order.accountId) },
                ListColumn("STATE", width: 16) { stateCell($0.order, storeIsProduction: storeIsProduction) },
                ListColumn("AGE", width: 7) { Cell(.age($0.age)) },
                ListColumn("TRIES", width: 5) { .count($0.attempts) },
                // An order no retry will move says so where its next try would be.
                ListColumn("NEXT TRY", width: 8) { $0.order.needsOperator ? Cell("operator", .alert) : .time($0.nextRetryAt) },
            ] + (play ? [acknowledgeBy] : []) + [
                ListColumn("LAST ERROR", width: 10, flexible: true) { Cell(ReasonWords.lastError($0.order), .muted) }
            ])
    }

    /// R7: hand deliveries Apple later showed were paid by a purchase another order holds.
    public static func conflicts() -> Listing<Order> {
        Listing(
            title: "Two deliveries for one purchase (R7)", empty: "No purchase was delivered twice.",
            columns: [
                ListColumn("WHEN", width: 16) { .time($0.stateChangedAt) },
                ListColumn("ORDER", width: 14) { Cell($0.orderId) },
                ListColumn("ACCOUNT", width: 12, flexible: true) { Cell($0.accountId) },
                ListColumn("PRODUCT", width: 11) { Cell($0.productId) },
                ListColumn("ALSO PAID", width: 14) { Cell($0.deliveryConflict, .alert) },
            ])
    }
}
