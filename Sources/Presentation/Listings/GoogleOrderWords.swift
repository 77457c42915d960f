import OrderDomain

/// Where Google's order id led, said once for the console and the CLI.
public enum GoogleOrderWords {
    public static func summary(_ finding: GoogleOrderFinding, id: String) -> (text: String, isError: Bool) {
        switch finding {
        case .orders(let orders, _):
            let names = orders.prefix(3).map { "\($0.orderId) (\($0.state.rawValue))" }.joined(separator: ", ")
            return ("Google's order \(id) was paid under a token \(orders.count == 1 ? "order" : "orders") \(names) submitted", false)
        case .unclaimed(let token, let product, let state, _):
            return (
                "\(id): a purchase at Google no order submitted (\(product ?? "a product"), \(state)): the game never sent it. Token: \(token)",
                true
            )
        case .notFound: return ("Google knows no order \(id) in this studio's packages", true)
        case .failed(let why): return ("Google did not answer about \(id): try again (\(why))", true)
        }
    }

    /// What the operator does about a purchase no order submitted: attach it, by key or command.
    public static func nextStep(_ finding: GoogleOrderFinding) -> String? {
        guard case .unclaimed(let token, _, _, let package) = finding else { return nil }
        return "attach it to the order it paid for (A in the console, `iapdesk google attach \(token) --package \(package) --order ID --reason …`)"
    }

    /// Said when Google cannot be asked at all: `what` (acknowledging, refunding…) needs the
    /// service account, for the console and the CLI alike.
    public static func needsServiceAccount(_ what: String) -> String {
        "\(what) needs Google Play's service account ([google_play] in the configuration)"
    }
}
