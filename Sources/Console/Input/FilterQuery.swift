import OrderDomain
import OrderStore

/// What `/` typed on the orders screen means: `state:verify_retry product:vip_monthly
/// acct:A env:sandbox app:com.studio.game store:google` narrow the list, all of them
/// together; a bare word (or `id:`) searches every kind of id (order, account, transaction
/// — Google's `GPA.…` too —, original transaction, Apple's appTransactionId, Google's
/// purchase token or obfuscated account id), `tid:`, `otid:`, `atid:`, `token:`, `oacct:`
/// and `order:` their own kind: exact matches, then by prefix (never for the last three
/// kinds).
public struct FilterQuery: Equatable, Sendable {
    /// An id to find: its text, the kind it names, and whether ids that start with it count.
    public struct Lookup: Equatable, Sendable {
        public var text: String
        public var kind: IdKind = .any
        public var prefix = true
    }

    public var filter = OrderFilter()
    public var lookup: Lookup?
    /// Words that meant nothing, shown back to the operator.
    public var problems: [String] = []

    public init(_ text: String) {
        for word in text.split(separator: " ").map(String.init) {
            let parts = word.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                lookup = Lookup(text: word)
                continue
            }
            let (key, value) = (parts[0].lowercased(), parts[1])
            switch key {
            case "state":
                if let state = OrderState(rawValue: value) { filter.state = state } else { problems.append("no state \(value)") }
            case "product": filter.productId = value
            case "app": filter.app = value
            case "store":
                if let store = Marketplace(word: value) { filter.marketplace = store } else { problems.append("store is apple or google") }
            case "acct", "account": filter.accountId = value
            case "env":
                if let environment = AppleEnvironment.allCases.first(where: { $0.rawValue.lowercased() == value.lowercased() }) {
                    filter.environment = environment
                } else {
                    problems.append("env is production or sandbox")
                }
            case "tid": lookup = Lookup(text: value, kind: .transaction)
            case "otid": lookup = Lookup(text: value, kind: .originalTransaction)
            case "atid": lookup = Lookup(text: value, kind: .appTransaction)
            case "token": lookup = Lookup(text: value, kind: .purchaseToken)
            case "oacct": lookup = Lookup(text: value, kind: .obfuscatedAccount)
            case "order": lookup = Lookup(text: value, kind: .order)
            case "id": lookup = Lookup(text: value)
            default: problems.append("unknown filter \(key):")
            }
        }
    }
}
