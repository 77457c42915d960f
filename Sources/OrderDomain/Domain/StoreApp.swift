/// An app the store serves: a studio's games share one store and one desk, each
/// known by its bundle id, with the name support calls it and its Apple id.
public struct StoreApp: Sendable, Equatable {
    /// What Apple signs into every receipt, transaction and notification of the app.
    public var bundleId: String
    /// As support calls it ("Dragon Clicker"); any script, sanitized where shown.
    public var name: String?
    /// App Store Connect's Apple ID of the app (`appAppleId` in Apple's payloads).
    public var appleAppId: Int64?
    public var addedAt: Millis

    public init(bundleId: String, name: String? = nil, appleAppId: Int64? = nil, addedAt: Millis = 0) {
        self.bundleId = bundleId
        self.name = name
        self.appleAppId = appleAppId
        self.addedAt = addedAt
    }

    /// Why the store cannot take it, or nil. A bundle id is reverse-DNS: letters, digits,
    /// `.` and `-` (Apple's own rule), at most 155 characters.
    public var problem: String? {
        let allowed = bundleId.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-") }
        if bundleId.isEmpty || bundleId.count > 155 || !allowed { return "bundle id: letters, digits, . and - (up to 155), not \(bundleId)" }
        if let appleAppId, appleAppId < 1 { return "apple app id: a positive number" }
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty { return "name: not blank" }
        return nil
    }
}
