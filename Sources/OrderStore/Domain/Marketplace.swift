/// The store a purchase was made in: an order, a purchase and a subscription name it, and the
/// rules read each store's answers through an adapter of its own.
public enum Marketplace: String, Sendable, Codable, CaseIterable {
    case appStore = "app_store"
    case googlePlay = "google_play"
}
