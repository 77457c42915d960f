import OrderDomain

/// Errors as people read them: what happened (the error's own words, which name no key and
/// no command) and then what to do next, naming the console's key and the CLI's command.
/// The console's message bar, the CLI's error line and `serve`'s problem details all say it
/// through here.
public enum ErrorWords {
    /// "no product gems_5000 in the catalogue: an admin adds it with `iapdesk product add …`".
    public static func text(_ error: any Error) -> String {
        let what: String =
            switch error {
            case let failure as any DatabaseFailureText: failure.databaseText
            case StoreSetupError.cannotOpen(_, let why): why
            default: "\(error)"
            }
        return nextStep(error).map { "\(what): \($0)" } ?? what
    }

    /// What opening a store repaired, or could not, with what the owner does about the latter.
    public static func text(_ repair: StoreRepair) -> String {
        switch repair {
        case .indexesRebuilt: "\(repair)"
        case .rolesNotGranted: "\(repair): run `iapdesk operator db-roles --apply` as the owner"
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
