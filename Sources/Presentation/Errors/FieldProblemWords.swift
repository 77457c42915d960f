import OrderDomain

extension ProductProblem {
    /// "currency: three capital letters (ISO 4217), not usd".
    public var words: String {
        switch self {
        case .idLength: "id: 1 to 200 characters"
        case .nameRequired: "name: required"
        case .negativePrice: "price: not negative"
        case .currency(let currency): "currency: three capital letters (ISO 4217), not \(currency)"
        case .groupOnlyForAutoRenewable: "group: only auto-renewable subscriptions have one"
        case .groupAndLevelTogether: "group and level go together"
        case .levelBelowOne: "level: 1 or more (1 is the highest service)"
        case .durationRequired: "duration_days: required for a non-renewing subscription (Apple gives no expiry)"
        case .durationOnlyForNonRenewing: "duration_days: only non-renewing subscriptions have one"
        case .durationRange: "duration_days: 1 to 3660"
        case .itemName(let item): "gives: an item is 1 to 64 letters, digits, _, - or ., not \(item)"
        case .itemAmount(let item): "gives: \(item) is 1 to 1000000000"
        }
    }
}

extension AppProblem {
    /// "apple app id: only an App Store app has one".
    public var words: String {
        switch self {
        case .id(let id): "bundle id: letters, digits, ., - and _ (up to 155), not \(id)"
        case .gameId(let id): "game: bundle id: letters, digits, ., - and _ (up to 155), not \(id)"
        case .appleAppIdNotPositive: "apple app id: a positive number"
        case .appleAppIdOnlyAppStore: "apple app id: only an App Store app has one"
        case .blankName: "name: not blank"
        case .gameNotServed(let game): "game: this store serves no app \(game) (add it first)"
        }
    }
}
