import OrderDomain

/// Where Google's order id led, said once for the console and the CLI.
public enum GoogleOrderWords {
    public static func summary(_ finding: GoogleOrderFinding, id: String) -> (text: String, isError: Bool) {
        switch finding {
        case .orders(let orders, _):
            let names = orders.prefix(3).map { "\($0.orderId) (\($0.state.rawValue))" }.joined(separator: ", ")
            return ("Google's order \(id) was paid under a token \(orders.count == 1 ? "order" : "orders") \(names) submitted", false)
        case .unclaimed(let token, let product, let state):
            return (
                "Google's order \(id) (\(product ?? "a product"), \(state)) is paid under a token no order submitted: the game never sent it. Token: \(token)",
                true
            )
        case .notFound: return ("Google knows no order \(id) in this studio's packages", true)
        case .failed(let why): return ("Google did not answer about \(id): try again (\(why))", true)
        }
    }

    /// Said when Google cannot be asked at all: `what` (acknowledging, refunding…) needs the
    /// service account, for the console and the CLI alike.
    public static func needsServiceAccount(_ what: String) -> String {
        "\(what) needs Google Play's service account ([google_play] in the configuration)"
    }
}
