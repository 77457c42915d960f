import Foundation
import OrderDomain
import OrderStore
import Receipts
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// `iapdesk receipt decode`: what an operator sees for real and hostile input.
@Suite(.needsFixtures) struct ReceiptDecodeCommandTests {
    /// A fixture's path; the suite needs the fixtures, so one missing from them fails.
    func fixture(_ relative: String) throws -> String {
        let path = Fixtures.path(relative)
        guard FileManager.default.fileExists(atPath: path) else { throw Machine.Missing(what: "fixture \(path)") }
        return path
    }

    func trustDirectory() throws -> String {
        let root = try fixture("certs/tpinappreceipt__AppleIncRootCertificate.cer")
        let directory = Scratch.url("iapdesk-trust-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root, toPath: directory + "/AppleIncRoot.cer")
        return directory
    }

    @Test func decodesARealReceiptWithItsVerdict() async throws {
        let (path, trust) = (try fixture("receipts/tpinappreceipt__receipt-sandbox-g5.b64"), try trustDirectory())
        let data = try AppleDataDetector.detect(Array(try #require(FileManager.default.contents(atPath: path))))
        let document = await ReceiptDocumentBuilder.build(data, trust: try TrustRoots.load(directory: trust))
        let text = ReceiptOutput.text(document)
        #expect(
            text.contains(
                "signature   receipt: VERIFIED Apple Root CA → Apple Worldwide Developer Relations Certification Authority → Mac App Store and iTunes Store Receipt Signing (SHA-256"
            ))
        #expect(text.contains("bundle id             dev.bonzer.weeka.app"))
        #expect(text.contains("2000001092134138"))
        let json = try ReceiptOutput.json(document)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let signatures = try #require(object["signatures"] as? [[String: Any]])
        #expect(signatures.first?["verified"] as? Bool == true)
        // And the command itself runs end to end.
        try await IAPDesk.run(["receipt", "decode", path, "--trust-roots", trust, "--json"])
    }

    @Test func withoutTrustRootsTheVerdictSaysWhy() async throws {
        let path = try fixture("receipts/tpinappreceipt__receipt-sandbox-g5.b64")
        let data = try AppleDataDetector.detect(Array(try #require(FileManager.default.contents(atPath: path))))
        let text = ReceiptOutput.text(await ReceiptDocumentBuilder.build(data, trust: .none))
        #expect(text.contains("UNVERIFIED: no trust roots are configured"))
    }

    @Test func hostileStringsFromDataAreShownEscaped() async throws {
        let payload = #"{"transactionId":"1","productId":"gem\u001b[2J\u202Epack","bundleId":"com.x\u0007"}"#
        let data = try AppleDataDetector.detect(Array(payload.utf8))
        let text = ReceiptOutput.text(await ReceiptDocumentBuilder.build(data, trust: .none))
        #expect(!text.contains("\u{1b}"))
        #expect(!text.contains("\u{202E}"))
        #expect(!text.contains("\u{07}"))
        #expect(text.contains("gem"))
        #expect(text.contains("pack"))
    }

    @Test("--json escapes every control and bidi character from data as \\uXXXX, and still round-trips")
    func hostileStringsInJSONAreEscaped() async throws {
        let payload = #"{"transactionId":"1","productId":"gem\u202E\u009B\u007Fpack\u001b]0;x\u0007","bundleId":"com.x"}"#
        let data = try AppleDataDetector.detect(Array(payload.utf8))
        let json = try ReceiptOutput.json(await ReceiptDocumentBuilder.build(data, trust: .none))
        for raw in ["\u{202E}", "\u{9B}", "\u{7F}", "\u{1B}", "\u{07}"] {
            #expect(!json.contains(raw), "raw \(raw.unicodeScalars.first.map { String($0.value, radix: 16) } ?? "")")
        }
        #expect(json.contains(#"\u202E"#) && json.contains(#"\u009B"#) && json.contains(#"\u007F"#))
        #expect(json.contains("gem\\u202E\\u009B\\u007Fpack"), "escaped where it stood")
        // A JSON reader gets the very same characters back.
        func strings(_ value: Any) -> [String] {
            switch value {
            case let text as String: [text]
            case let array as [Any]: array.flatMap(strings)
            case let object as [String: Any]: object.values.flatMap(strings)
            default: []
            }
        }
        let values = strings(try JSONSerialization.jsonObject(with: Data(json.utf8)))
        #expect(values.contains { $0.contains("gem\u{202E}\u{9B}\u{7F}pack\u{1B}]0;x\u{07}") }, "\(values)")
    }

    @Test("Input is bounded while it is read: an endless file is refused at 8 MB, not read to the end")
    func endlessInputIsRefusedAtTheLimit() throws {
        // /dev/zero never ends: reading it whole would never return.
        #expect(throws: CLIError.self) { try BoundedInput.read("/dev/zero", limit: AppleDataDetector.maxInputBytes) }
        do {
            _ = try BoundedInput.read("/dev/zero", limit: 1 << 20)
        } catch {
            #expect("\(error)".contains("over 1 MB"))
        }
    }

    @Test func garbageIsAClearErrorNamingTheFile() async throws {
        let path = Scratch.url("garbage-\(UUID().uuidString).txt").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("MIIBogus!!".utf8)))
        do {
            try await IAPDesk.run(["receipt", "decode", path])
            Issue.record("garbage decoded")
        } catch {
            #expect("\(error)".contains(path))
            #expect("\(error)".contains("not valid base64"))
        }
    }
}

/// What the binary prints when a command fails: sanitized, the command's own words, a
/// non-zero exit.
@Suite("CLI errors", .needsBinary)
struct CLIErrorTests {
    @Test("--version names the build and the store schema it opens, on standard output")
    func version() async throws {
        let (status, output, _) = try await Self.run(["--version"])
        #expect(
            status == 0 && output.contains("iapdesk \(IAPDeskCommands.version)") && output.contains("store schema \(OrderStore.schemaVersion)"), "\(output)")
    }

    /// Runs the built binary; (exit status, standard output, standard error).
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (Int32, String, String) {
        let finished = try await ChildProcess.run(
            try Machine.requireBinary(), arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, errorsApart: true)
        return (finished.status, finished.output, finished.errors)
    }

    @Test("An id typed with escape sequences comes back escaped in the error; a validation error names no root usage; help goes to stdout with 0")
    func errorsAreSanitized() async throws {
        let db = Scratch.url("iapdesk-errors-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) } }
        let (status, _, error) = try await Self.run(["order", "show", "x\u{1b}]0;pwned\u{07}", "--db", db])
        #expect(status != 0)
        #expect(!error.contains("\u{1b}") && !error.contains("\u{07}") && error.contains(#"x\x1B]0;pwned\x07"#), "\(error)")

        let (invalid, _, said) = try await Self.run(["order", "list", "--state", "bogus\u{202E}", "--db", db])
        #expect(invalid == 64 && said.contains("is invalid for '--state <state>'") && said.contains("verify_retry") && !said.contains("\u{202E}"), "\(said)")
        #expect(!said.contains("Usage: iapdesk <subcommand>"), "\(said)")

        let (helped, help, _) = try await Self.run(["--help"])
        #expect(helped == 0 && help.contains("USAGE: iapdesk <subcommand>"))
    }
}
