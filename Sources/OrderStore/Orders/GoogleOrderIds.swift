import OrderDomain

extension Orders {
    /// Whether `id` reads as Google's order id: `GPA.` then digits in dashed groups, and a
    /// renewal's `..N`.
    public static func looksLikeGoogleOrderId(_ id: String) -> Bool {
        guard id.hasPrefix("GPA."), id.count >= 12 else { return false }
        return id.dropFirst(4).allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-" || $0 == ".") }
    }

    /// Where Google's order id `googleOrderId` leads when no order's id matched it (the
    /// player has Google's receipt email; the store never got Google's answer for it): Google
    /// is asked through `lookUp` for the purchase token it was paid under (a renewal's
    /// `..N` by its chain's first order), then the orders that submitted that token, or
    /// claim a purchase paid under it.
    public func findGoogleOrder(_ googleOrderId: String, asking lookUp: (String) async -> GoogleOrderAnswer) async throws -> GoogleOrderFinding {
        switch await lookUp(googleOrderId) {
        case .notFound: return .notFound
        case .failed(let why): return .failed(why)
        case .found(let token, let productId, let state, let package):
            let orders = try await lookup(token, kind: .purchaseToken)
            return orders.isEmpty
                ? .unclaimed(purchaseToken: token, productId: productId, state: state, package: package) : .orders(orders, purchaseToken: token)
        }
    }
}
