/// What opening a store found and repaired, or could not: said by the CLI and the console
/// (with what to do next, from Presentation's `ErrorWords`).
public enum StoreRepair: Sendable, Equatable {
    /// Indexes an interrupted seed left dropped, built again.
    case indexesRebuilt([String])
    /// The iapdesk group roles could not be granted this version's new tables.
    case rolesNotGranted(why: String)
}
