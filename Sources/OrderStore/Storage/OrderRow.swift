import SQLKit

extension Order {
    /// The column list every order query selects, in one place.
    static let columnList = """
        order_id, account_id, product_id, quantity, created_at, state, state_changed_at, version, updated_by,
        stuck_since, environment, transaction_id, original_transaction_id, attempts, first_failure_at,
        next_retry_at, last_error, reason_code, needs_operator, replay_flag, delivery_conflict, app, marketplace
        """
    static let columns = SQLQueryString(columnList)

    /// The column list with each column of the table aliased `alias` (for a join).
    static func columns(of alias: String) -> String {
        columnList.split(separator: ",").map { "\(alias).\($0.trimmingCharacters(in: .whitespacesAndNewlines))" }.joined(separator: ", ")
    }

    init(row: Row) throws {
        self.init(
            orderId: try row.string("order_id"), accountId: try row.string("account_id"),
            productId: try row.string("product_id"), quantity: try row.int("quantity"),
            createdAt: try row.int64("created_at"), state: try row.value("state", as: OrderState.self),
            stateChangedAt: try row.int64("state_changed_at"), version: try row.int64("version"),
            updatedBy: try row.string("updated_by"), stuckSince: try row.optionalInt64("stuck_since"),
            environment: try row.optionalValue("environment", as: AppleEnvironment.self),
            transactionId: try row.optionalString("transaction_id"),
            originalTransactionId: try row.optionalString("original_transaction_id"),
            attempts: try row.int("attempts"), firstFailureAt: try row.optionalInt64("first_failure_at"),
            nextRetryAt: try row.optionalInt64("next_retry_at"), lastError: try row.optionalString("last_error"),
            reason: try row.optionalString("reason_code").map { OrderReason(code: $0) ?? .unclassified },
            needsOperator: try row.bool("needs_operator"), replayFlag: try row.bool("replay_flag"),
            deliveryConflict: try row.optionalString("delivery_conflict"), app: try row.optionalString("app"))
        marketplace = try row.optionalValue("marketplace", as: Marketplace.self) ?? .appStore
    }
}

extension Product {
    static let columns = "product_id, type, display_name, price_minor, currency, subscription_group, group_level, duration_days, retired_at, app, gives"

    init(row: Row) throws {
        let productId = try row.string("product_id")
        let givesText = try row.optionalString("gives") ?? ""
        // Checked when written: anything else was changed outside iapdesk, and a game told to
        // give nothing would be a silent loss.
        guard let gives = Product.gives(givesText) else {
            throw StoreError.corrupt("product \(productId): its stored gives \"\(givesText)\" do not parse")
        }
        self.init(
            productId: productId, type: try row.value("type", as: ProductType.self),
            displayName: try row.string("display_name"), priceMinor: try row.int64("price_minor"), currency: try row.string("currency"),
            subscriptionGroup: try row.optionalString("subscription_group"), groupLevel: try row.optionalInt64("group_level").map(Int.init),
            durationDays: try row.optionalInt64("duration_days").map(Int.init), retiredAt: try row.optionalInt64("retired_at"),
            gives: gives, app: try row.optionalString("app"))
    }
}

extension SQLDatabase {
    func order(_ orderId: String) async throws -> Order? {
        try await row("SELECT \(Order.columns) FROM orders WHERE order_id = \(bind: orderId)").map(Order.init(row:))
    }

    func requireOrder(_ orderId: String) async throws -> Order {
        guard let order = try await order(orderId) else { throw StoreError.notFound(kind: .order, id: orderId) }
        return order
    }

    func product(_ productId: String) async throws -> Product? {
        try await row("SELECT \(unsafeRaw: Product.columns) FROM products WHERE product_id = \(bind: productId)").map(Product.init(row:))
    }

    func productTypes() async throws -> [String: ProductType] {
        var types: [String: ProductType] = [:]
        for row in try await rows("SELECT product_id, type FROM products") {
            types[try row.string("product_id")] = try row.value("type", as: ProductType.self)
        }
        return types
    }
}
