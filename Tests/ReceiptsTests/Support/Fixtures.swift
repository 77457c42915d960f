import Foundation
import Testing

/// The real Apple data in `../shared/fixtures` (DESIGN.md: used from tests, never copied).
/// In CI (`CI=true`) a missing fixture fails the test; elsewhere the test is skipped loudly.
enum Fixtures {
    static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["IAPDESK_FIXTURES"] {
            return URL(fileURLWithPath: override)
        }
        // Tests/ReceiptsTests/Support/Fixtures.swift → package root → ../shared/fixtures
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/fixtures")
    }()

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "fixture missing: \(path) (CI=true requires every fixture)" }
    }

    /// The fixture's bytes, or nil (after a loud warning) when it is absent outside CI.
    static func data(_ relative: String) throws -> Data? {
        let url = directory.appendingPathComponent(relative)
        if let data = FileManager.default.contents(atPath: url.path) { return data }
        if ProcessInfo.processInfo.environment["CI"] == "true" { throw Missing(path: url.path) }
        print("⚠️  SKIPPED: fixture \(url.path) is missing; set IAPDESK_FIXTURES or check out ../shared")
        return nil
    }

    static func text(_ relative: String) throws -> String? {
        try data(relative).map { String(decoding: $0, as: UTF8.self) }
    }

    static func files(in folder: String) throws -> [String] {
        let url = directory.appendingPathComponent(folder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { throw Missing(path: url.path) }
            print("⚠️  SKIPPED: fixture folder \(url.path) is missing")
            return []
        }
        return names.sorted().map { "\(folder)/\($0)" }
    }
}
