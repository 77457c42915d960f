/// What an operation found wrong with what it was given, before it did anything: each
/// refusal a value of its own (``StoreError/invalid(_:)``), so callers and tests match on it
/// and nothing is decided by reading its words.
public enum InvalidInput: Sendable, Equatable {
    case orderWithoutIds
    case quantityNotPositive(Int)
    case importedOrderIncomplete
    case noteTooLong(max: Int)
    case emptyOperatorName
    case consumptionOutOfRange
    case extensionDays(Int, max: Int)
    case extensionReasonCode(Int)
    case extendsAutoRenewablesOnly(productId: String, type: ProductType)
    case massExtensionUnderWay(productId: String)
    /// A product's own fields (``Product/problem``) or an app's (``StoreApp/problem``).
    case product(productId: String, problem: ProductProblem)
    case app(problem: AppProblem)
    case productNotInCatalogue(String)
    case productAppFixed(productId: String, app: String)
    case productTypeFixed(productId: String, type: ProductType)
    case productRetiredAlready(String)
    case productAppUnnamed(productId: String, served: [String])
    case subscriptionWithoutOwner(originalTransactionId: String)
    case ownerWithoutOrder(owner: String, originalTransactionId: String)
    case orderIdNotUUID(String)
    case loginName
    case notPostgres(location: String)
}
