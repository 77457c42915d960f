import OrderDomain

/// A store's name, said once for every screen, list and command.
extension Marketplace {
    /// As a heading or a line says it: "App Store", "Google Play".
    public var name: String {
        switch self {
        case .appStore: "App Store"
        case .googlePlay: "Google Play"
        }
    }

    /// Who answers for the store, as a reason says it: "no answer from Apple", "Google HTTP 503".
    public var company: String {
        switch self {
        case .appStore: "Apple"
        case .googlePlay: "Google"
        }
    }

    /// As a table's narrow column says it: "Apple", "Play".
    public var shortName: String {
        switch self {
        case .appStore: "Apple"
        case .googlePlay: "Play"
        }
    }
}
