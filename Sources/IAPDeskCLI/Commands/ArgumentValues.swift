import ArgumentParser
import OrderStore
import Server

// Options whose values are a closed set are parsed as their types: `--help` lists the
// values, and a typo is refused by the parser with that list, before anything runs.

extension OrderState: ExpressibleByArgument {}
extension Role: ExpressibleByArgument {}
extension NotificationOutcome: ExpressibleByArgument {}
extension ServeRole: ExpressibleByArgument {}

extension AppleEnvironment: ExpressibleByArgument {
    /// `production` or `sandbox`, in any case (Apple writes them capitalized).
    public init?(argument: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == argument.lowercased() }) else { return nil }
        self = match
    }

    public static var allValueStrings: [String] { allCases.map { $0.rawValue.lowercased() } }
}

/// Whom an R8 settlement favours.
enum Favor: String, CaseIterable, ExpressibleByArgument {
    /// The rule's verdict stands: the subscription's owner keeps it.
    case owner
    /// The account that submitted the disputed renewal gets it.
    case submitter
}
