import Foundation
import Testing
import Receipts
@testable import IAPDeskCLI

/// `iapdesk receipt decode`: what an operator sees for real and hostile input.
@Suite struct ReceiptDecodeCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures").path

    func fixture(_ relative: String) throws -> String? {
        let path = "\(Self.fixtures)/\(relative)"
        if FileManager.default.fileExists(atPath: path) { return path }
        if ProcessInfo.processInfo.environment["CI"] == "true" { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        print("⚠️  SKIPPED: fixture \(path) is missing")
        return nil
    }

    func trustDirectory() throws -> String? {
        guard let root = try fixture("certs/tpinappreceipt__AppleIncRootCertificate.cer") else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-trust-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root, toPath: directory + "/AppleIncRoot.cer")
        return directory
    }

    @Test func decodesARealReceiptWithItsVerdict() async throws {
        guard let path = try fixture("receipts/tpinappreceipt__receipt-sandbox-g5.b64"), let trust = try trustDirectory() else { return }
        let data = try AppleDataDetector.detect(Array(try #require(FileManager.default.contents(atPath: path))))
        let document = await ReceiptDocumentBuilder.build(data, trust: try TrustRoots.load(directory: trust))
        let text = ReceiptOutput.text(document)
        #expect(text.contains("signature   receipt: VERIFIED Apple Root CA → Apple Worldwide Developer Relations Certification Authority → Mac App Store and iTunes Store Receipt Signing (SHA-256"))
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
        guard let path = try fixture("receipts/tpinappreceipt__receipt-sandbox-g5.b64") else { return }
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

    @Test func garbageIsAClearErrorNamingTheFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("garbage-\(UUID().uuidString).txt").path
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
