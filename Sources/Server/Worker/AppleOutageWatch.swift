import OrderDomain
import OrderStore

/// Whether Apple is failing now (the store's OutageRule), asked at most four times a
/// second: the worker's loop and each round's top-ups look on every turn, and between asks
/// the last answer holds.
struct AppleOutageWatch {
    static let interval: Duration = .milliseconds(250)

    private var lastAsked: ContinuousClock.Instant?
    private var down = false

    /// `askedNow`: the caller just learned Apple's state elsewhere, so the first ask waits
    /// an interval.
    init(askedNow: Bool = false) {
        lastAsked = askedNow ? .now : nil
    }

    mutating func isDown(_ store: OrderStore) async throws -> Bool {
        if let lastAsked, ContinuousClock.now - lastAsked < Self.interval { return down }
        lastAsked = .now
        down = try await store.apple.failing() != nil
        return down
    }
}
