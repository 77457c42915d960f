import OrderDomain
import SQLKit

extension Order: StoredRecord {
    enum Column: String, TableColumn {
        case orderId = "order_id", accountId = "account_id", productId = "product_id", quantity, createdAt = "created_at", state,
            stateChangedAt = "state_changed_at", version, updatedBy = "updated_by", stuckSince = "stuck_since", environment,
            transactionId = "transaction_id", originalTransactionId = "original_transaction_id", attempts, firstFailureAt = "first_failure_at",
            nextRetryAt = "next_retry_at", lastError = "last_error", reasonDetails = "reason_details", reasonCode = "reason_code", needsOperator =
            "needs_operator",
            replayFlag = "replay_flag", deliveryConflict = "delivery_conflict", app, marketplace
    }

    init(_ row: Columns<Column>) throws {
        let orderId = try row.string(.orderId)
        self.init(
            orderId: orderId, accountId: try row.string(.accountId),
            productId: try row.string(.productId), quantity: try row.int(.quantity),
            createdAt: try row.int64(.createdAt), state: try row.value(.state, as: OrderState.self),
            stateChangedAt: try row.int64(.stateChangedAt), version: try row.int64(.version),
            updatedBy: try row.string(.updatedBy), stuckSince: try row.optionalInt64(.stuckSince),
            environment: try row.optionalValue(.environment, as: AppleEnvironment.self),
            transactionId: try row.optionalString(.transactionId),
            originalTransactionId: try row.optionalString(.originalTransactionId),
            attempts: try row.int(.attempts), firstFailureAt: try row.optionalInt64(.firstFailureAt),
            nextRetryAt: try row.optionalInt64(.nextRetryAt),
            particulars: try ReasonParticulars(
                stored: try row.optionalString(.reasonDetails), words: try row.optionalString(.lastError), of: "order \(orderId)"),
            reason: try row.optionalString(.reasonCode).map { OrderReason(code: $0) ?? .unclassified },
            needsOperator: try row.bool(.needsOperator), replayFlag: try row.bool(.replayFlag),
            deliveryConflict: try row.optionalString(.deliveryConflict), app: try row.optionalString(.app))
        marketplace = try row.optionalValue(.marketplace, as: Marketplace.self) ?? .appStore
    }
}

extension Product: StoredRecord {
    enum Column: String, TableColumn {
        case productId = "product_id", type, displayName = "display_name", priceMinor = "price_minor", currency,
            subscriptionGroup = "subscription_group", groupLevel = "group_level", durationDays = "duration_days", retiredAt = "retired_at", app, gives
    }

    init(_ row: Columns<Column>) throws {
        let productId = try row.string(.productId)
        let givesText = try row.optionalString(.gives) ?? ""
        // Checked when written: anything else was changed outside iapdesk, and a game told to
        // give nothing would be a silent loss.
        guard let gives = Product.gives(givesText) else {
            throw StoreError.corrupt("product \(productId): its stored gives \"\(givesText)\" do not parse")
        }
        self.init(
            productId: productId, type: try row.value(.type, as: ProductType.self),
            displayName: try row.string(.displayName), priceMinor: try row.int64(.priceMinor), currency: try row.string(.currency),
            subscriptionGroup: try row.optionalString(.subscriptionGroup), groupLevel: try row.optionalInt64(.groupLevel).map(Int.init),
            durationDays: try row.optionalInt64(.durationDays).map(Int.init), retiredAt: try row.optionalInt64(.retiredAt),
            gives: gives, app: try row.optionalString(.app))
    }
}

extension SQLDatabase {
    func order(_ orderId: String) async throws -> Order? {
        try await rows(OrderById(orderId: orderId).bound).first.map(Order.init(row:))
    }

    func requireOrder(_ orderId: String) async throws -> Order {
        guard let order = try await order(orderId) else { throw StoreError.notFound(kind: .order, id: orderId) }
        return order
    }

    func product(_ productId: String) async throws -> Product? {
        try await row("SELECT \(unsafeRaw: Product.Column.list) FROM products WHERE product_id = \(bind: productId)").map(Product.init(row:))
    }

    func productTypes() async throws -> [String: ProductType] {
        var types: [String: ProductType] = [:]
        for row in try await rows("SELECT product_id, type FROM products") {
            types[try row.string("product_id")] = try row.value("type", as: ProductType.self)
        }
        return types
    }
}
