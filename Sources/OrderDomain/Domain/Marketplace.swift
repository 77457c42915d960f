/// The store a purchase was made in: an order, a purchase and a subscription name it, and the
/// rules read each store's answers through an adapter of its own.
public enum Marketplace: String, Sendable, Codable, CaseIterable {
    case appStore = "app_store"
    case googlePlay = "google_play"
}

extension Marketplace {
    /// The store an operator's word names: `apple` (or `app_store`, `ios`) and `google`
    /// (or `google_play`, `play`, `android`); nil for any other word.
    public init?(word: String) {
        switch word.lowercased() {
        case "apple", "app_store", "appstore", "ios": self = .appStore
        case "google", "google_play", "googleplay", "play", "android": self = .googlePlay
        default: return nil
        }
    }
}
