import OrderDomain

extension Order {
    /// The flags an operator must see beside the state, in the words both the console and
    /// the command line print.
    public func badges(storeIsProduction: Bool) -> [String] {
        var badges: [String] = []
        if needsOperator { badges.append("NEEDS OPERATOR") }
        if replayFlag { badges.append("REPLAY") }
        if isUnconfirmedDelivery { badges.append("UNCONFIRMED: Apple has not yet confirmed the purchase") }
        if let other = deliveryConflict { badges.append("TWO DELIVERIES for one purchase (also order \(other))") }
        if EnvironmentRule.isFlaggedSandbox(environment, storeIsProduction: storeIsProduction) { badges.append(EnvironmentRule.flaggedSandboxText) }
        return badges
    }
}
