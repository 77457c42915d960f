/// Why a store could not be opened, migrated or set up as asked. Nothing was changed; what
/// the store's owner does next is Presentation's to say (`ErrorWords`). The refusals of the store's operations are
/// `StoreError`'s.
public enum StoreSetupError: Error, Equatable, CustomStringConvertible {
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

    public var description: String {
        switch self {
        case .cannotOpen(let location, let why):
            "cannot open store \(location): \(why)"
        case .olderSchema(let found, let known):
            "you cannot change this store's schema and it is at version \(found), not \(known): its owner must open it once with this iapdesk"
        case .newerSchema(let found, let known):
            "the store's schema is version \(found), newer than this iapdesk knows (\(known)); upgrade iapdesk"
        case .otherApp(let store, let configured):
            "this store is for \(store), and the configuration names \(configured)"
        case .postgresOnly(let what):
            "\(what) are PostgreSQL's; on SQLite, whoever can write the file is an admin"
        case .groupRolesMissing:
            "the iapdesk group roles are not set up on this database"
        case .storeNotEmpty(let location):
            "the store at \(location) already has orders; seed an empty store"
        }
    }
}
