/// The faults in force, switchable while the simulator runs (`PUT /control/faults`).
/// Draws come from a seeded generator, so a run with a given seed misbehaves the same way.
public actor FaultSwitch {
    public private(set) var profile: FaultProfile
    private var random: SplitMix

    public init(_ profile: FaultProfile = .none, seed: UInt64 = 0x1AD_DE5C) {
        self.profile = profile
        random = SplitMix(seed: seed)
    }

    public func set(_ profile: FaultProfile) { self.profile = profile }

    /// This request's latency (seconds) and fault.
    package func draw() -> (latency: Double, fault: FaultProfile.Fault?, hang: Double) {
        let latency = profile.drawLatency(&random)
        return (latency, profile.draw(&random), profile.hang)
    }
}

/// SplitMix64: small, fast and good enough to decide which request fails (and, in tests,
/// to shuffle the same way on every run).
public struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
