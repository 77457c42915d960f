import Foundation
import TestSupport
import Testing

@testable import Receipts

/// Which chain signed each real receipt, and the reasons a receipt is UNVERIFIED.
@Suite(.needsFixtures) struct ReceiptSignatureTests {
    func decode(_ name: String) throws -> DecodedAppReceipt {
        let text = try Fixtures.text("receipts/\(name)")
        return try AppReceiptDecoder.decode(base64: text)
    }

    @Test(arguments: [
        ("revenuecat__base64encodedreceiptsample1_sandbox_2020.b64", "SHA-1"),
        ("mbaasy__spec-receipts-unified_sandbox_2015.b64", "SHA-1"),
        ("tpinappreceipt__receipt-sandbox-legacy.b64", "SHA-1"),
        ("tpinappreceipt__receipt-crash.b64", "SHA-1"),
        ("tpinappreceipt__receipt-sandbox-g5.b64", "SHA-256"),
    ])
    func appStoreReceiptsVerifyToAppleRootCA(name: String, digest: String) async throws {
        let decoded = try decode(name)
        let trust = try TestTrust.apple()
        let verdict = await decoded.verifySignature(trust: trust)
        #expect(verdict.isVerified, "\(verdict.summary)")
        #expect(verdict.digest == digest)
        #expect(verdict.chain.last?.commonName == "Apple Root CA")
        #expect(verdict.chain.count == 3)
        #expect(verdict.validationTime == decoded.receipt.receiptCreationDate)
    }

    @Test func sha256ReceiptIsSignedThroughTheG5Intermediate() async throws {
        let decoded = try decode("tpinappreceipt__receipt-sandbox-g5.b64")
        let trust = try TestTrust.apple()
        let verdict = await decoded.verifySignature(trust: trust)
        #expect(verdict.chain.map(\.signatureAlgorithm).first == "sha256WithRSAEncryption")
        #expect(verdict.chain[1].notAfter == TestTrust.date("2030-12-10T00:00:00Z"))
    }

    @Test func expiredSHA1ChainStillVerifiesForItsOwnTimeButNotToday() async throws {
        let decoded = try decode("tpinappreceipt__receipt-sandbox-legacy.b64")
        let trust = try TestTrust.apple()
        #expect(await decoded.verifySignature(trust: trust).isVerified)
        // The same receipt checked at "now" (creation date removed): WWDR G1 expired in 2023.
        var undated = decoded.receipt
        undated.receiptCreationDate = nil
        let today = await ReceiptSignatureCheck.verify(decoded.container, receipt: undated, trust: trust, now: TestTrust.date("2026-11-22T00:00:00Z"))
        #expect(!today.isVerified)
        #expect(today.reason?.contains("chain rejected") == true)
    }

    @Test func xcodeReceiptsAreTrustedOnlyWithTheConfiguredStoreKitCertificate() async throws {
        let decoded = try decode("tpinappreceipt__receipt-xcode.b64")
        let apple = try TestTrust.apple()
        let both = try TestTrust.appleAndXcode()
        let refused = await decoded.verifySignature(trust: apple)
        #expect(!refused.isVerified)
        #expect(refused.reason?.contains("not configured as trusted") == true)
        let trusted = await decoded.verifySignature(trust: both)
        #expect(trusted.isVerified, "\(trusted.summary)")
        #expect(trusted.chain.map(\.commonName) == ["StoreKit"])
    }

    @Test func noConfiguredRootsSaysSo() async throws {
        let decoded = try decode("tpinappreceipt__receipt-sandbox-g5.b64")
        let verdict = await decoded.verifySignature(trust: .none)
        #expect(verdict.reason?.contains("no trust roots are configured") == true)
    }

    @Test func theWrongRootDoesNotVerify() async throws {
        let decoded = try decode("tpinappreceipt__receipt-sandbox-g5.b64")
        let g3 = try TestTrust.certificates(TestTrust.appleRootG3Name)
        let verdict = await decoded.verifySignature(trust: TrustRoots(apple: g3))
        #expect(!verdict.isVerified)
    }

    @Test func anAlteredPayloadBreaksTheSignature() async throws {
        let text = try Fixtures.text("receipts/tpinappreceipt__receipt-sandbox-g5.b64")
        let trust = try TestTrust.apple()
        var der = Array(try #require(Data(base64Encoded: text.filter { !$0.isWhitespace })))
        // Change one digit of the bundle id inside the signed payload: still parses, no longer signed.
        let needle = Array("dev.bonzer.weeka.app".utf8)
        let at = try #require(der.indices.first { der[$0...].starts(with: needle) })
        der[at] = UInt8(ascii: "D")
        let decoded = try AppReceiptDecoder.decode(der: der)
        #expect(decoded.receipt.bundleId == "Dev.bonzer.weeka.app")
        let verdict = await decoded.verifySignature(trust: trust)
        #expect(verdict.reason?.contains("signature does not match") == true)
    }

    @Test func onlySelfSignedCertificatesCanBeTrustRoots() throws {
        let leaf = try Fixtures.data("certs/extracted-from-tpinappreceipt-receipt-production__receipt-signing-leaf-2024-g5.pem")
        let directory = Scratch.url("iapdesk-roots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent("leaf.pem").path, contents: leaf))
        #expect(throws: TrustRootError.self) { try TrustRoots.load(directory: directory.path) }
        do {
            _ = try TrustRoots.load(directory: directory.path)
        } catch {
            #expect("\(error)".contains("not self-signed"))
        }
    }
}
