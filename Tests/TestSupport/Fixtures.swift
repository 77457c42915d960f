import Foundation

/// The real Apple data in `../shared/fixtures` (used from tests, never copied into the repository).
/// Suites that read it carry `.needsFixtures`: without the folder they are skipped with that
/// reason; in CI (`CI=true`) nothing is skipped and a missing fixture fails the test.
public enum Fixtures {
    public static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["IAPDESK_FIXTURES"] {
            return URL(fileURLWithPath: override)
        }
        // Tests/TestSupport/Fixtures.swift → package root → ../shared/fixtures
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("shared/fixtures")
    }()

    /// Whether the fixtures folder is there at all.
    public static var present: Bool { FileManager.default.fileExists(atPath: directory.path) }

    /// The absolute path of a fixture, whether or not it exists.
    public static func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }

    /// The fixture's bytes. A suite that reads fixtures carries `.needsFixtures`, so it runs
    /// only where the folder is; a file missing from it fails the test that wanted it,
    /// naming the file, never passes it green.
    public static func data(_ relative: String) throws -> Data {
        let url = directory.appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Machine.Missing(what: "fixture \(url.path); set IAPDESK_FIXTURES or check out ../shared")
        }
        return data
    }

    public static func text(_ relative: String) throws -> String {
        String(decoding: try data(relative), as: UTF8.self)
    }

    public static func files(in folder: String) throws -> [String] {
        let url = directory.appendingPathComponent(folder)
        // The suite needs the fixtures, so they are here: a folder missing from them fails.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
            throw Machine.Missing(what: "fixture folder \(url.path)")
        }
        return names.sorted().map { "\(folder)/\($0)" }
    }
}
