import Foundation

/// Get Transaction History's query: `startDate`/`endDate` (purchase date, ms), `productId`,
/// `productType`, `subscriptionGroupIdentifier` (each may repeat), `inAppOwnershipType`,
/// `revoked` and `sort`. A value Apple would refuse is refused with Apple's error code.
struct HistoryFilter {
    var start: Date?
    var end: Date?
    var productIds: Set<String> = []
    var kinds: Set<SimulatedPurchase.Kind> = []
    var groups: Set<String> = []
    var familyShared: Bool?
    var revoked: Bool?
    var descending = false

    struct Refusal: Error {
        var answer: SimulatorAnswer
        init(_ code: Int, _ message: String) { answer = .apiError(code, message, status: 400) }
    }

    static func parse(_ query: Query) throws(Refusal) -> HistoryFilter {
        var filter = HistoryFilter()
        func date(_ name: String, _ code: Int) throws(Refusal) -> Date? {
            guard let text = query.first(name) else { return nil }
            guard let ms = Int64(text), ms >= 0 else { throw Refusal(code, "Invalid \(name).") }
            return Date(timeIntervalSince1970: Double(ms) / 1000)
        }
        filter.start = try date("startDate", 4_000_015)
        filter.end = try date("endDate", 4_000_016)
        if let start = filter.start, let end = filter.end, start > end { throw Refusal(4_000_013, "Start date after end date.") }
        filter.productIds = Set(query.all("productId"))
        for type in query.all("productType") {
            guard let kind = kindsByType[type] else { throw Refusal(4_000_022, "Invalid product type.") }
            filter.kinds.insert(kind)
        }
        filter.groups = Set(query.all("subscriptionGroupIdentifier"))
        switch query.first("inAppOwnershipType") {
        case nil: break
        case "FAMILY_SHARED": filter.familyShared = true
        case "PURCHASED": filter.familyShared = false
        default: throw Refusal(4_000_026, "Invalid in-app ownership type.")
        }
        switch query.first("revoked")?.lowercased() {
        case nil: break
        case "true": filter.revoked = true
        case "false": filter.revoked = false
        default: throw Refusal(4_000_030, "Invalid revoked.")
        }
        switch query.first("sort") {
        case nil, "ASCENDING": break
        case "DESCENDING": filter.descending = true
        default: throw Refusal(4_000_021, "Invalid sort.")
        }
        return filter
    }

    static let kindsByType: [String: SimulatedPurchase.Kind] = [
        "AUTO_RENEWABLE": .autoRenewable, "NON_RENEWABLE": .nonRenewing, "CONSUMABLE": .consumable, "NON_CONSUMABLE": .nonConsumable,
    ]

    func admits(_ p: SimulatedPurchase, group: String?) -> Bool {
        if let start, p.purchaseDate < start { return false }
        if let end, p.purchaseDate >= end { return false }
        if !productIds.isEmpty, !productIds.contains(p.productId) { return false }
        if !kinds.isEmpty, !kinds.contains(p.kind) { return false }
        if !groups.isEmpty, !groups.contains(group ?? "") { return false }
        if let familyShared, (p.familyShared == true) != familyShared { return false }
        if let revoked, (p.cancellationDate != nil) != revoked { return false }
        return true
    }
}
