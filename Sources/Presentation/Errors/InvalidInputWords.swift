import OrderDomain

/// What an operation found wrong with its input, in words.
extension InvalidInput {
    public var words: String {
        switch self {
        case .orderWithoutIds: "an order needs an order id and an account id"
        case .quantityNotPositive(let quantity): "quantity must be positive, got \(quantity)"
        case .importedOrderIncomplete: "an order needs an id, an account and a quantity"
        case .noteTooLong(let max): "a note is at most \(max) characters; link the ticket instead"
        case .emptyOperatorName: "operator name is empty"
        case .consumptionOutOfRange: "consumed: 0 to 100 percent"
        case .extensionDays(let days, let max): "Apple extends by 1 to \(max) days, not \(days)"
        case .extensionReasonCode(let code): "reason code \(code): Apple's are 0 to 3"
        case .extendsAutoRenewablesOnly(let productId, let type): "\(productId) is \(type.rawValue): Apple extends auto-renewable subscriptions only"
        case .massExtensionUnderWay(let productId): "another extension of every \(productId) subscriber is being asked of Apple right now"
        case .product(let productId, let problem): "\(productId): \(problem.words)"
        case .app(let problem): problem.words
        case .productNotInCatalogue(let productId): "\(productId) is not in the catalogue: add it first"
        case .productAppFixed(let productId, let app): "\(productId) is sold by \(app) and orders name it: its app cannot change"
        case .productTypeFixed(let productId, let type): "\(productId) is \(type.rawValue) and orders name it: its type cannot change"
        case .productRetiredAlready(let productId): "\(productId) was retired already"
        case .productAppUnnamed(let productId, let served):
            "\(productId): this store serves \(served.joined(separator: ", ")): say which app sells it (--app, or app in the file)"
        case .subscriptionWithoutOwner(let otid): "subscription \(otid) has no owner yet: nothing to bind it to"
        case .ownerWithoutOrder(let owner, let otid): "\(owner) has no order on subscription \(otid): its token would be the id of one (nothing was sent)"
        case .orderIdNotUUID(let orderId): "order \(orderId) is not a UUID, and Apple's appAccountToken must be one (nothing was sent)"
        case .loginName: "a database login name is 1 to 63 bytes without control characters"
        case .notPostgres(let location): "\(location) is not a PostgreSQL location"
        }
    }
}
