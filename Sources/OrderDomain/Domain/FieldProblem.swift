/// What is wrong with a product's fields, as a value (``Product/problem``); Presentation says it.
public enum ProductProblem: Sendable, Equatable {
    case idLength
    case nameRequired
    case negativePrice
    case currency(String)
    case groupOnlyForAutoRenewable
    case groupAndLevelTogether
    case levelBelowOne
    case durationRequired
    case durationOnlyForNonRenewing
    case durationRange
    case itemName(String)
    case itemAmount(String)
}

/// What is wrong with an app's fields (``StoreApp/problem``), or with the game it names.
public enum AppProblem: Sendable, Equatable {
    /// A bundle id or package name outside reverse-DNS.
    case id(String)
    case gameId(String)
    case appleAppIdNotPositive
    case appleAppIdOnlyAppStore
    case blankName
    /// The game is named by an app this store does not serve.
    case gameNotServed(String)
}
