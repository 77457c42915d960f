/// An app the store serves: a studio's games share one store and one desk. An app is a
/// bundle id in the App Store or a package name in Google Play; each belongs to a game,
/// the product line its products are sold under (named by one of its apps, usually the
/// Apple bundle id), so a player who moved from iPhone to Android is one player of one game.
public struct StoreApp: Sendable, Equatable, Codable {
    /// What the store signs into every purchase of the app: Apple's bundle id, Google's
    /// package name (often the same text; the store keeps the two apart).
    public var bundleId: String
    public var marketplace: Marketplace
    /// The app id of the game it belongs to; its own id when it is a game of its own.
    public var game: String
    /// As support calls it ("Dragon Clicker"); any script, sanitized where shown.
    public var name: String?
    /// App Store Connect's Apple ID of the app (`appAppleId` in Apple's payloads).
    public var appleAppId: Int64?
    public var addedAt: Millis

    public init(
        bundleId: String, marketplace: Marketplace = .appStore, game: String? = nil, name: String? = nil, appleAppId: Int64? = nil, addedAt: Millis = 0
    ) {
        self.bundleId = bundleId
        self.marketplace = marketplace
        self.game = game ?? bundleId
        self.name = name
        self.appleAppId = appleAppId
        self.addedAt = addedAt
    }

    /// Why the store cannot take it, or nil. Bundle ids and package names are reverse-DNS:
    /// letters, digits, `.`, `-` and `_` (Apple's rule, and Google's `_`), at most 155 characters.
    public var problem: AppProblem? {
        if !Self.isAppId(bundleId) { return .id(bundleId) }
        if !Self.isAppId(game) { return .gameId(game) }
        if let appleAppId, appleAppId < 1 { return .appleAppIdNotPositive }
        if appleAppId != nil, marketplace != .appStore { return .appleAppIdOnlyAppStore }
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty { return .blankName }
        return nil
    }

    private static func isAppId(_ id: String) -> Bool {
        let allowed = id.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "_")
        }
        return !id.isEmpty && id.count <= 155 && allowed
    }
}
