import Foundation

/// Milliseconds since 1970 in UTC: the one time representation in the store. Both
/// backends store it as a 64-bit integer, so comparisons and indexes behave the same.
public typealias Millis = Int64

public extension Millis {
    static func now() -> Millis { Millis((Date().timeIntervalSince1970 * 1000).rounded()) }
    static func seconds(_ s: Int64) -> Millis { s * 1000 }
    static func minutes(_ m: Int64) -> Millis { m * 60_000 }
    static func hours(_ h: Int64) -> Millis { h * 3_600_000 }
    static func days(_ d: Int64) -> Millis { d * 86_400_000 }

    /// A duration as people read it at a glance: `45s`, `12m`, `3h20m`, `2d5h`.
    var ageText: String {
        let seconds = self / 1000
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h\(seconds % 3600 / 60)m"
        default: return "\(seconds / 86_400)d\(seconds % 86_400 / 3600)h"
        }
    }

    /// `HH:mm` UTC, for a banner that says since when.
    var clockText: String {
        let minutes = (self / 60_000) % (24 * 60)
        return String(format: "%02d:%02d UTC", Int(minutes / 60), Int(minutes % 60))
    }

    /// ISO 8601 in UTC, for text output.
    var iso8601: String {
        Date(timeIntervalSince1970: Double(self) / 1000).formatted(.iso8601)
    }
}
