import OrderDomain

/// Why a store could not be opened or set up, in words.
extension StoreSetupError {
    public var words: String {
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
