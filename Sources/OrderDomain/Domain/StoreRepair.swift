/// What opening a store found and repaired, or could not: said by the CLI and the console
/// (with what to do next, from Presentation's `ErrorWords`).
public enum StoreRepair: Sendable, Equatable, CustomStringConvertible {
    /// Indexes an interrupted seed left dropped, built again.
    case indexesRebuilt([String])
    /// The iapdesk group roles could not be granted this version's new tables.
    case rolesNotGranted(why: String)

    public var description: String {
        switch self {
        case .indexesRebuilt(let names):
            "rebuilt \(names.count) missing index\(names.count == 1 ? "" : "es") (\(names.joined(separator: ", ")))"
        case .rolesNotGranted(let why):
            "could not grant the iapdesk database roles on this version's tables (\(why))"
        }
    }
}
