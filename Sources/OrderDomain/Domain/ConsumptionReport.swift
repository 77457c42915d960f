/// What the game said of a purchase's use (`POST /v1/orders/{id}/consumption`): the
/// evidence a refund request is answered from, kept before Apple asks.
public struct ConsumptionReport: Sendable, Equatable {
    /// How long the player played since the purchase, in Apple's bands (`playTime` of
    /// Send Consumption Information v1; v2 no longer sends it, support still reads it).
    public enum PlayTime: String, Sendable, Codable, CaseIterable {
        case under5Minutes = "under_5_minutes", under1Hour = "5_to_60_minutes", under6Hours = "1_to_6_hours"
        case under1Day = "6_to_24_hours", under4Days = "1_to_4_days", under16Days = "4_to_16_days", over16Days = "over_16_days"

        /// The band in words ("1 to 6 hours").
        public var words: String { rawValue.replacingOccurrences(of: "_", with: " ") }
    }

    public var orderId: String
    public var reportedAt: Millis
    /// Used, in thousandths of a percent (0…100000), as Apple's `consumptionPercentage`.
    public var consumptionPercentage: Int
    public var playTime: PlayTime?
    /// The player agreed, in the game, to share this with Apple: what Apple requires before
    /// it takes consumption information, and what lets the refund policy answer.
    public var customerConsented: Bool
    /// The game server's client name (from its bearer token).
    public var client: String

    public init(orderId: String, reportedAt: Millis, consumptionPercentage: Int, playTime: PlayTime?, customerConsented: Bool = false, client: String) {
        self.orderId = orderId
        self.reportedAt = reportedAt
        self.consumptionPercentage = consumptionPercentage
        self.playTime = playTime
        self.customerConsented = customerConsented
        self.client = client
    }
}
