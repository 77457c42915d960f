import OrderDomain

/// What opening a store repaired, or could not, in words.
extension StoreRepair {
    public var words: String {
        switch self {
        case .indexesRebuilt(let names):
            "rebuilt \(names.count) missing index\(names.count == 1 ? "" : "es") (\(names.joined(separator: ", ")))"
        case .rolesNotGranted(let why):
            "could not grant the iapdesk database roles on this version's tables (\(why))"
        }
    }
}
