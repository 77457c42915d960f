import Foundation
import Testing

/// Text that operators read (a command's `--help`, a console screen), kept as files beside
/// the tests: a change to what they read shows up in review as a change to a file.
/// `IAPDESK_RECORD_SNAPSHOTS=1 swift test --filter Snapshot` writes them anew.
public struct Snapshots: Sendable {
    public let folder: URL

    /// `folder` is relative to the calling test file's folder, e.g. "Snapshots/help".
    public init(_ folder: String, besides testFile: String = #filePath) {
        self.folder = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent(folder)
    }

    public static var recording: Bool { ProcessInfo.processInfo.environment["IAPDESK_RECORD_SNAPSHOTS"] == "1" }

    /// Expects `text` to equal the file `name`; when recording, writes it instead.
    public func check(_ text: String, _ name: String, what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name)
        if Self.recording {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let snapshot = try? String(contentsOf: url, encoding: .utf8)
        #expect(snapshot == text, "\(what) changed; record again if that is meant:\n\(text)", sourceLocation: sourceLocation)
    }

    /// Expects no file beyond `names`: a snapshot whose subject is gone is removed too.
    public func expectOnly(_ names: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) {
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        #expect(files.subtracting(names).isEmpty, "snapshots without a subject: \(files.subtracting(names).sorted())", sourceLocation: sourceLocation)
    }
}
