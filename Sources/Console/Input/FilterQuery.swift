import OrderStore

/// What `/` typed on the orders screen means: `state:verify_retry product:vip_monthly
/// acct:A env:sandbox` narrow the list; `tid:`, `otid:` or a bare word search every kind of id
/// (order, account, transaction or original transaction id): exact matches, then by prefix.
public struct FilterQuery: Equatable, Sendable {
    public var filter = OrderFilter()
    public var lookup: String?
    /// Words that meant nothing, shown back to the operator.
    public var problems: [String] = []

    public init(_ text: String) {
        for word in text.split(separator: " ").map(String.init) {
            let parts = word.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                lookup = word
                continue
            }
            let (key, value) = (parts[0].lowercased(), parts[1])
            switch key {
            case "state":
                if let state = OrderState(rawValue: value) { filter.state = state } else { problems.append("no state \(value)") }
            case "product": filter.productId = value
            case "acct", "account": filter.accountId = value
            case "env":
                if let environment = AppleEnvironment.allCases.first(where: { $0.rawValue.lowercased() == value.lowercased() }) {
                    filter.environment = environment
                } else {
                    problems.append("env is production or sandbox")
                }
            case "tid", "otid", "order", "id": lookup = value
            default: problems.append("unknown filter \(key):")
            }
        }
    }
}
