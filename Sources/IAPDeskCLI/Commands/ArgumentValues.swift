import ArgumentParser
import Foundation
import OrderDomain
import OrderStore
import Presentation
import Server

// Options whose values are a closed set are parsed as their types: `--help` lists the
// values, and a typo is refused by the parser with that list, before anything runs.

extension OrderState: ExpressibleByArgument {}
extension Role: ExpressibleByArgument {}
extension ProductType: ExpressibleByArgument {}
extension NotificationOutcome: ExpressibleByArgument {}
extension ServeRole: ExpressibleByArgument {}

extension AppleEnvironment: ExpressibleByArgument {
    /// `production` or `sandbox`, in any case (Apple writes them capitalized).
    public init?(argument: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == argument.lowercased() }) else { return nil }
        self = match
    }

    public static var allValueStrings: [String] { allCases.map { $0.rawValue.lowercased() } }
}

extension Marketplace: ExpressibleByArgument {
    /// `apple` or `google` (and the other words ``Marketplace/init(word:)`` knows).
    public init?(argument: String) { self.init(word: argument) }

    public static var allValueStrings: [String] { ["apple", "google"] }
}

extension Favor: ExpressibleByArgument {}

extension ExportFormat: ExpressibleByArgument {}

/// An instant typed as a day (`2026-10-01`, midnight UTC) or in full ISO 8601
/// (`2026-10-01T08:00:00Z`).
struct Instant: ExpressibleByArgument {
    var millis: Millis

    init?(argument: String) {
        let day = Date.ISO8601FormatStyle().year().month().day()
        guard let date = (try? Date(argument, strategy: .iso8601)) ?? (try? Date(argument, strategy: day)) else { return nil }
        millis = Millis(date.timeIntervalSince1970 * 1000)
    }
}

/// A calendar month in UTC (`2026-10`): from its first instant to the next month's.
struct Month: ExpressibleByArgument {
    var from: Millis
    var until: Millis

    init?(argument: String) {
        let parts = argument.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month), (1970...9999).contains(year) else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard let start = calendar.date(from: DateComponents(year: year, month: month, day: 1)),
            let end = calendar.date(byAdding: .month, value: 1, to: start)
        else { return nil }
        from = Millis(start.timeIntervalSince1970 * 1000)
        until = Millis(end.timeIntervalSince1970 * 1000)
    }
}
