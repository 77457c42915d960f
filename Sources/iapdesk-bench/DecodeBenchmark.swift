import ArgumentParser
import Foundation
import Receipts

/// `iapdesk-bench decode`: microseconds per real receipt, payload parse alone and parse
/// with the signature and chain check, over `fixtures/receipts`.
struct DecodeBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "decode", abstract: "Receipt decoding and verification per receipt.")

    @Option(help: "The shared fixtures folder (receipts/ and certs/ inside).")
    var fixtures = FixtureFolder.defaultPath

    @Option(help: "Timed repetitions per receipt and measurement.")
    var repetitions = 400

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let folder = FixtureFolder(path: fixtures)
        let trust = try folder.trust()
        var rows: [[String: Any]] = []
        for name in try folder.receiptNames() {
            let base64 = try folder.text("receipts/\(name)")
            guard let data = Data(base64Encoded: base64.filter { !$0.isWhitespace }) else { throw ValidationError("\(name): not base64") }
            let der = Array(data)
            let verified = await (try AppReceiptDecoder.decode(der: der)).verifySignature(trust: trust).isVerified

            let parse = try await medianMicroseconds(repetitions) { _ = try AppReceiptDecoder.decode(der: der) }
            let parseBase64 = try await medianMicroseconds(repetitions) { _ = try AppReceiptDecoder.decode(base64: base64) }
            let parseVerify = try await medianMicroseconds(repetitions) {
                _ = await (try AppReceiptDecoder.decode(der: der)).verifySignature(trust: trust)
            }
            // Cold: the certificate cache emptied before every run, as for the first receipt of a chain.
            let parseVerifyCold = try await medianMicroseconds(repetitions) {
                CertificateCache.shared.removeAll()
                _ = await (try AppReceiptDecoder.decode(der: der)).verifySignature(trust: trust)
            }
            rows.append([
                "receipt": name, "bytes": der.count, "verified": verified,
                "parse_us": parse, "base64_parse_us": parseBase64, "parse_verify_us": parseVerify,
                "parse_verify_cold_us": parseVerifyCold,
            ])
        }
        if json {
            let data = try JSONSerialization.data(withJSONObject: ["receipts": rows, "repetitions": repetitions], options: [.sortedKeys, .prettyPrinted])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        print("median µs per receipt over \(repetitions) runs (reference: OpenSSL 3.0 parse 100–390, parse+verify 360–460)")
        print("receipt".padding(toLength: 58, withPad: " ", startingAt: 0) + "   bytes   parse  b64+parse  parse+verify  (cold)  verdict")
        for row in rows {
            let name = (row["receipt"] as? String ?? "").padding(toLength: 58, withPad: " ", startingAt: 0)
            let cells = ["bytes", "parse_us", "base64_parse_us", "parse_verify_us", "parse_verify_cold_us"].map { key in
                let value = row[key] as? Double ?? Double(row[key] as? Int ?? 0)
                return String(format: "%.0f", value)
            }
            print(
                "\(name) \(cells[0].leftPad(7)) \(cells[1].leftPad(7)) \(cells[2].leftPad(10)) \(cells[3].leftPad(13)) \(cells[4].leftPad(7))  \((row["verified"] as? Bool ?? false) ? "VERIFIED" : "UNVERIFIED")"
            )
        }
    }
}

/// `iapdesk-bench fuzz`: many mutated fixtures through the decoder, reporting the slowest.
struct FuzzBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fuzz", abstract: "Decode mutated fixtures; fail on a hang.")

    @Option(help: "The shared fixtures folder.")
    var fixtures = FixtureFolder.defaultPath

    @Option(help: "Mutated inputs to decode.")
    var iterations = 300_000

    @Option(help: "Check signatures on every Nth input (0 = never).")
    var verifyEvery = 16

    func run() async throws {
        let folder = FixtureFolder(path: fixtures)
        let trust = try folder.trust()
        let seeds = try folder.allInputs()
        var mutator = InputMutator(seed: 0xF022)
        var decoded = 0
        var slowest = 0.0
        let started = ContinuousClock.now
        for iteration in 0..<iterations {
            let input = mutator.mutate(seeds[iteration % seeds.count])
            let start = ContinuousClock.now
            if let data = try? AppleDataDetector.detect(input) {
                decoded += 1
                if verifyEvery > 0, iteration % verifyEvery == 0 { _ = await ReceiptDocumentBuilder.build(data, trust: trust) }
            }
            slowest = max(slowest, (ContinuousClock.now - start).milliseconds)
        }
        let total = (ContinuousClock.now - started).milliseconds / 1000
        print(
            "fuzz: \(iterations) mutated inputs from \(seeds.count) fixtures in \(String(format: "%.1f", total)) s; \(decoded) still decoded; no crash; slowest input \(String(format: "%.2f", slowest)) ms"
        )
        if slowest > 1000 { throw ValidationError("an input took \(slowest) ms: a hang") }
    }
}

/// The shared fixtures, read by the benchmarks.
struct FixtureFolder {
    static let defaultPath: String = {
        // Sources/iapdesk-bench/DecodeBenchmark.swift → package root → ../shared/fixtures
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/fixtures").path
    }()

    let path: String

    func text(_ relative: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: "\(path)/\(relative)") else { throw ValidationError("missing fixture \(path)/\(relative)") }
        return String(decoding: data, as: UTF8.self)
    }

    func receiptNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "\(path)/receipts").filter { $0.hasSuffix(".b64") }.sorted()
    }

    /// Apple Root CA and Root CA - G3 as anchors, the StoreKit certificate for Xcode receipts.
    func trust() throws -> TrustRoots {
        let certs = "\(path)/certs/"
        return TrustRoots(
            apple: try TrustRoots.certificates(inFile: certs + "tpinappreceipt__AppleIncRootCertificate.cer")
                + TrustRoots.certificates(inFile: certs + "asslswift-SignedDataVerifierTests__AppleRootCA-G3.der"),
            xcode: try TrustRoots.certificates(inFile: certs + "tpinappreceipt__StoreKitTestCertificate.cer"))
    }

    func allInputs() throws -> [[UInt8]] {
        var inputs: [[UInt8]] = []
        for folder in ["receipts", "jws", "verifyreceipt-json", "legacy-transaction-receipts"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: "\(path)/\(folder)").sorted() {
                let bytes = Array(try text("\(folder)/\(name)").utf8)
                inputs.append(bytes)
                if folder == "receipts", let der = Data(base64Encoded: String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }) {
                    inputs.append(Array(der))
                }
            }
        }
        return inputs
    }
}

extension String {
    func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
