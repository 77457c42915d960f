import Foundation

/// What can go wrong between iapdesk and a store (Apple, Google Play), as a simulator plays it: per request,
/// each fault fires with its probability; latency applies to every request.
public struct FaultProfile: Sendable, Equatable, CustomStringConvertible {
    public enum Fault: Sendable, Equatable {
        /// An Apple status in a 200 answer (21005 "server unavailable", 21009, 211xx…),
        /// with `is_retryable` when given. The Server API answers these as HTTP 500, 5000001.
        case status(Int, retryable: Bool?)
        /// An HTTP error: 5xx without JSON, or 429 with `Retry-After`.
        case http(Int)
        /// Never answers within any sane client time-out.
        case timeout
        /// A body that is not JSON, or JSON cut off mid-way.
        case malformed, truncated
    }

    public struct Entry: Sendable, Equatable {
        public var fault: Fault
        public var probability: Double
        /// Fires at most this many times (`http429*1`: the next request only), then never.
        public var remaining: Int?
        public init(_ fault: Fault, _ probability: Double = 1, times: Int? = nil) {
            self.fault = fault
            self.probability = probability
            remaining = times
        }
    }

    /// Seconds, drawn uniformly per request.
    public var latency: ClosedRange<Double>
    public var faults: [Entry]
    /// How long a `timeout` keeps the connection waiting.
    public var hang: Double

    public init(latency: ClosedRange<Double> = 0...0, faults: [Entry] = [], hang: Double = 300) {
        self.latency = latency
        self.faults = faults
        self.hang = hang
    }

    public static let none = FaultProfile()

    /// Named profiles for `--faults`: `none`, `slow` (Apple's 3–6 s [S2]), `flaky`
    /// (a mix of everything), `storm` (21005 for every request), `down` (HTTP 503).
    public static func named(_ name: String) -> FaultProfile? {
        switch name {
        case "none": FaultProfile.none
        case "slow": FaultProfile(latency: 3...6)
        case "flaky":
            FaultProfile(
                latency: 0.05...0.4,
                faults: [
                    Entry(.status(21005, retryable: nil), 0.1), Entry(.status(21199, retryable: true), 0.05), Entry(.http(503), 0.05),
                    Entry(.malformed, 0.02), Entry(.truncated, 0.02), Entry(.http(429), 0.02),
                ])
        case "storm": FaultProfile(faults: [Entry(.status(21005, retryable: nil))])
        case "down": FaultProfile(faults: [Entry(.http(503))])
        default: nil
        }
    }

    /// Parses a profile: a name, or comma-separated items, each fault with an optional
    /// `:probability` (default 1):
    /// `latency=0.5` or `latency=3-6` (seconds), `21005`, `21105r` / `21105n` (211xx with
    /// `is_retryable` true / false), `http503`, `http429`, `timeout`, `malformed`, `truncated`,
    /// and a name as the first item to start from (`flaky,latency=1`). A fault followed by
    /// `*N` fires for the next N requests it is drawn for only (`http429*1`).
    public static func parse(_ text: String) throws(FaultSpecError) -> FaultProfile {
        var profile = FaultProfile()
        for (index, raw) in text.split(separator: ",").enumerated() {
            let item = raw.trimmingCharacters(in: .whitespaces)
            if index == 0, let named = named(item) {
                profile = named
            } else if item.hasPrefix("latency=") {
                let parts = item.dropFirst("latency=".count).split(separator: "-", omittingEmptySubsequences: false)
                let bounds = parts.compactMap { Double($0) }
                guard (1...2).contains(parts.count), bounds.count == parts.count, let low = bounds.first, let high = bounds.last,
                    low >= 0, low <= high
                else {
                    throw FaultSpecError(item: item)
                }
                profile.latency = low...high
            } else {
                profile.faults.append(try entry(item))
            }
        }
        return profile
    }

    private static func entry(_ item: String) throws(FaultSpecError) -> Entry {
        let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
        var probability = 1.0
        if parts.count == 2 {
            guard let p = Double(parts[1]), (0...1).contains(p) else { throw FaultSpecError(item: item) }
            probability = p
        }
        let counted = (parts.first ?? "").split(separator: "*", maxSplits: 1).map(String.init)
        var times: Int?
        if counted.count == 2 {
            guard let n = Int(counted[1]), n > 0 else { throw FaultSpecError(item: item) }
            times = n
        }
        let name = counted.first ?? ""
        let fault: Fault
        switch name {
        case "timeout": fault = .timeout
        case "malformed": fault = .malformed
        case "truncated": fault = .truncated
        case _ where name.hasPrefix("http"):
            guard let code = Int(name.dropFirst(4)), (400...599).contains(code) else { throw FaultSpecError(item: item) }
            fault = .http(code)
        case _ where name.hasSuffix("r") || name.hasSuffix("n"):
            guard let code = Int(name.dropLast()), (21100...21199).contains(code) else { throw FaultSpecError(item: item) }
            fault = .status(code, retryable: name.hasSuffix("r"))
        default:
            guard let code = Int(name), (21000...21199).contains(code) else { throw FaultSpecError(item: item) }
            fault = .status(code, retryable: nil)
        }
        return Entry(fault, probability, times: times)
    }

    /// Draws this request's fault, if any, using up one of a counted fault's times.
    package mutating func draw(_ random: inout some RandomNumberGenerator) -> Fault? {
        for index in faults.indices where faults[index].remaining != 0 && Double.random(in: 0..<1, using: &random) < faults[index].probability {
            if let left = faults[index].remaining { faults[index].remaining = left - 1 }
            return faults[index].fault
        }
        return nil
    }

    package func drawLatency(_ random: inout some RandomNumberGenerator) -> Double {
        latency.lowerBound == latency.upperBound ? latency.lowerBound : Double.random(in: latency, using: &random)
    }

    public var description: String {
        var items: [String] = []
        if latency != 0...0 {
            items.append(latency.lowerBound == latency.upperBound ? "latency=\(latency.lowerBound)" : "latency=\(latency.lowerBound)-\(latency.upperBound)")
        }
        for entry in faults {
            let name =
                switch entry.fault {
                case .status(let code, let retryable): "\(code)" + (retryable.map { $0 ? "r" : "n" } ?? "")
                case .http(let code): "http\(code)"
                case .timeout: "timeout"
                case .malformed: "malformed"
                case .truncated: "truncated"
                }
            let counted = entry.remaining.map { "\(name)*\($0)" } ?? name
            items.append(entry.probability == 1 ? counted : "\(counted):\(entry.probability)")
        }
        return items.isEmpty ? "none" : items.joined(separator: ",")
    }
}

public struct FaultSpecError: Error, Sendable, CustomStringConvertible {
    public var item: String
    public var description: String {
        "fault item '\(item)' is not one of: none|slow|flaky|storm|down, latency=S or latency=A-B, 21xxx, 211xxr, httpNNN, timeout, malformed, truncated (each with an optional :probability)"
    }
}
