import OrderDomain

/// Errors as people read them: what happened (the error's own words, which name no key and
/// no command) and then what to do next, naming the console's key and the CLI's command.
/// The console's message bar, the CLI's error line and `serve`'s problem details all say it
/// through here.
public enum ErrorWords {
    /// "no product gems_5000 in the catalogue: an admin adds it with `iapdesk product add …`".
    public static func text(_ error: any Error) -> String {
        let what = what(error)
        return nextStep(error).map { "\(what): \($0)" } ?? what
    }

    /// Whether the error is one of the store's, which these words say (not another library's).
    public static func knows(_ error: any Error) -> Bool { storeWords(error) != nil }

    /// What happened, alone: for a log line or a stored last error, where no next step belongs.
    public static func what(_ error: any Error) -> String { storeWords(error) ?? "\(error)" }

    /// The words of the store's own errors and the database's; nil for any other error.
    private static func storeWords(_ error: any Error) -> String? {
        switch error {
        case let error as StoreError: error.words
        // The database's own words say why it could not be opened.
        case StoreSetupError.cannotOpen(_, let why): why
        case let error as StoreSetupError: error.words
        case let error as AuditError: error.words
        case let error as AppleActionError: error.words
        case let failure as any DatabaseFailureText: failure.databaseText
        default: nil
        }
    }

    /// What opening a store repaired, or could not, with what the owner does about the latter.
    public static func text(_ repair: StoreRepair) -> String {
        switch repair {
        case .indexesRebuilt: repair.words
        case .rolesNotGranted: "\(repair.words): run `iapdesk operator db-roles --apply` as the owner"
        }
    }

    /// What the operator does about `error`; nil where the error says all there is.
    public static func nextStep(_ error: any Error) -> String? {
        switch error {
        case StoreError.unknownProduct(let id):
            "an admin adds it with `iapdesk product add \(id) --type … --name … --price … --currency …`"
        case StoreError.productRetired(let id): "see it with `iapdesk product show \(id)`"
        case StoreError.productExists(let id): "change it with `iapdesk product update \(id)`"
        case StoreError.unknownApp(let app, _, _): "an admin adds it with `iapdesk app add \(app)`"
        case StoreError.notPaidIn(.appStore, _):
            "a Google Play purchase is attached through Google: A in the console, `iapdesk google attach TOKEN --order ID`"
        case StoreError.mustSettleDispute: "settle it (d in the console, `iapdesk order resolve`), which also closes its review"
        case StoreSetupError.otherApp:
            "open it with its own configuration, or add the app to this store with `iapdesk app add` under a configuration that names one of its apps"
        case StoreSetupError.groupRolesMissing: "run `iapdesk operator db-roles --apply` as its owner first"
        case AuditError.keyTooShort, AuditError.noKey: "`iapdesk audit new-key FILE` writes one"
        case AuditError.notAnchored: "an admin starts signing it with `iapdesk audit anchor --reason …`"
        case AuditError.headForged: "read `iapdesk audit verify`, then an admin runs `iapdesk audit anchor --reason …`"
        default: nil
        }
    }
}
