import Foundation

/// What can go wrong between iapdesk and Apple, as the simulator plays it: per request,
/// each fault fires with its probability; latency applies to every request.
public struct FaultProfile: Sendable, Equatable {
    public enum Fault: Sendable, Equatable {
        /// An Apple status in a 200 answer (21005 "server unavailable", 21009, 211xx…),
        /// with `is_retryable` when given.
        case status(Int, retryable: Bool?)
        /// An HTTP error with no JSON (5xx, 429 with Retry-After).
        case http(Int)
        /// Never answers within any sane client time-out.
        case timeout
        /// A body that is not JSON, or JSON cut off mid-way.
        case malformed, truncated
    }

    public var latency: ClosedRange<Double>   // seconds
    public var faults: [(fault: Fault, probability: Double)]

    public init(latency: ClosedRange<Double> = 0...0, faults: [(fault: Fault, probability: Double)] = []) {
        self.latency = latency
        self.faults = faults
    }

    public static let none = FaultProfile()

    /// Named profiles for `--faults`: `none`, `slow` (Apple's 3–6 s [S2]), `flaky`
    /// (a mix of everything), `storm` (21005 for every request), `down` (HTTP 503).
    public static func named(_ name: String) -> FaultProfile? {
        switch name {
        case "none": .none
        case "slow": FaultProfile(latency: 3...6)
        case "flaky": FaultProfile(latency: 0.05...0.4, faults: [
            (.status(21005, retryable: nil), 0.1), (.status(21199, retryable: true), 0.05), (.http(503), 0.05),
            (.malformed, 0.02), (.truncated, 0.02), (.http(429), 0.02),
        ])
        case "storm": FaultProfile(faults: [(.status(21005, retryable: nil), 1)])
        case "down": FaultProfile(faults: [(.http(503), 1)])
        default: nil
        }
    }

    public static func == (lhs: FaultProfile, rhs: FaultProfile) -> Bool {
        lhs.latency == rhs.latency && lhs.faults.map(\.fault) == rhs.faults.map(\.fault)
            && lhs.faults.map(\.probability) == rhs.faults.map(\.probability)
    }

    /// Draws this request's fault, if any.
    func draw(_ random: inout some RandomNumberGenerator) -> Fault? {
        for (fault, probability) in faults where Double.random(in: 0..<1, using: &random) < probability {
            return fault
        }
        return nil
    }

    func drawLatency(_ random: inout some RandomNumberGenerator) -> Double {
        latency.lowerBound == latency.upperBound ? latency.lowerBound : Double.random(in: latency, using: &random)
    }
}
