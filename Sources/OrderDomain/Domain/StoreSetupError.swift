/// Why a store could not be opened, migrated or set up as asked. Nothing was changed; what
/// the store's owner does next is Presentation's to say (`ErrorWords`). The refusals of the store's operations are
/// `StoreError`'s.
public enum StoreSetupError: Error, Equatable {
    /// The database cannot be reached or the location is malformed; `why` is its own words.
    case cannotOpen(String, String)
    /// A login that may not migrate met a store behind this iapdesk's schema.
    case olderSchema(found: Int, known: Int)
    case newerSchema(found: Int, known: Int)
    /// The store serves one app and the configuration names another.
    case otherApp(store: String, configured: String)
    /// Database roles and logins exist on PostgreSQL only.
    case postgresOnly(what: String)
    case groupRolesMissing
    /// A bulk load (`iapdesk seed`) writes only into a store with no orders.
    case storeNotEmpty(location: String)
}
