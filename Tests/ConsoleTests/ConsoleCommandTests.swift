import Testing

@testable import Console

/// The `:` commands are one table: help, Tab and the parser read the same rows.
@Suite("The : commands")
struct ConsoleCommandTests {
    @Test("Every name and alias in the table parses to its command; an id is required where one is named, refused where none is; help shows every command once")
    func table() {
        for spec in ConsoleCommand.specs {
            for name in spec.names {
                // An argument in brackets may be left out.
                let text = spec.argument.map { name + " " + (Self.optionalExamples[$0] ?? "2000000000000001") } ?? name
                #expect((try? ConsoleCommand.parse(text).get()) != nil, "\(text)")
            }
            if let argument = spec.argument, !argument.hasPrefix("[") {
                #expect(ConsoleCommand.parse(spec.names[0]) == .failure(CommandError(":\(spec.names[0]) needs \(Self.what(spec))")))
            }
        }
        #expect(ConsoleCommand.parse("sub 2000000000000001") == .success(.subscription("2000000000000001")))
        #expect(ConsoleCommand.parse("refunds all") == .success(.refunds(all: true)))
        #expect(ConsoleCommand.parse("refunds some") == .failure(CommandError(":refunds takes nothing, or all")))
        #expect(ConsoleCommand.parse("notif") == .success(.notifications(nil)), "both stores'")
        #expect(ConsoleCommand.parse("notifications google") == .success(.notifications(.googlePlay)))
        #expect(ConsoleCommand.parse("notifications apple") == .success(.notifications(.appStore)))
        #expect(ConsoleCommand.parse("notifications amazon") == .failure(CommandError(":notifications takes nothing, apple or google")))
        #expect(ConsoleCommand.parse("stuck now") == .failure(CommandError(":stuck takes nothing")))
        #expect(ConsoleCommand.parse("nope") == .failure(CommandError("no command :nope; ? lists them")))
        #expect(ConsoleCommand.all.count == ConsoleCommand.specs.count && Set(ConsoleCommand.names).count == ConsoleCommand.names.count)
    }

    /// A value each optional argument takes.
    static let optionalExamples = ["[all]": "all", "[STORE]": "google"]

    static func what(_ spec: ConsoleCommand.Spec) -> String {
        switch spec.names[0] {
        case "otid", "xray": "an original transaction id"
        case "theme": "a name"
        case "export": "a file name"
        default: "an id"
        }
    }
}
