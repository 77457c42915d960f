/// R2: which environment answers a receipt [S0 §4, S2, S4].
public enum EnvironmentRule {
    /// Production is always asked first.
    public static let first: AppleEnvironment = .production

    /// Where to resend after Apple answered `status` from `asked`; nil means the answer stands.
    /// 21007 is a sandbox receipt sent to production; 21008 the reverse.
    public static func resend(afterStatus status: Int?, from asked: AppleEnvironment) -> AppleEnvironment? {
        switch (status, asked) {
        case (21007, .production): .sandbox
        case (21008, .sandbox): .production
        default: nil
        }
    }

    /// A sandbox purchase in a production store is accepted (App Review pays in sandbox
    /// [S2]) but flagged so finance can keep it apart.
    public static func isFlaggedSandbox(_ answered: AppleEnvironment?, storeIsProduction: Bool) -> Bool {
        storeIsProduction && answered == .sandbox
    }

    /// The flag as people read it, on the order's badges and the receipt screen alike.
    public static let flaggedSandboxText = "SANDBOX in a production store: App Review or a tester"
}
