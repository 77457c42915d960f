import Foundation
import Testing
@testable import Receipts

/// Mutated real inputs never crash or hang the decoder: each gives a value or an error.
/// The default run is short; `IAPDESK_FUZZ_ITERATIONS` (or `iapdesk-bench fuzz`) runs more.
@Suite struct FuzzTests {
    @Test func mutatedFixturesGiveErrorsNotCrashes() async throws {
        var seeds: [[UInt8]] = []
        for folder in ["receipts", "jws", "verifyreceipt-json", "legacy-transaction-receipts"] {
            for path in try Fixtures.files(in: folder) {
                guard let data = try Fixtures.data(path) else { continue }
                seeds.append(Array(data))
                // Also the DER form of base64 receipts, where the BER parser is hit directly.
                if folder == "receipts", let der = Data(base64Encoded: String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }) {
                    seeds.append(Array(der))
                }
            }
        }
        guard !seeds.isEmpty else { return }
        let iterations = Int(ProcessInfo.processInfo.environment["IAPDESK_FUZZ_ITERATIONS"] ?? "") ?? 4000
        let trust = try TestTrust.apple() ?? .none
        var mutator = Mutator(seed: 0x1AD_DE5C)
        var decoded = 0
        var slowest = 0.0
        for iteration in 0..<iterations {
            let input = mutator.mutate(seeds[iteration % seeds.count])
            let started = Date()
            if let data = try? AppleDataDetector.detect(input) {
                decoded += 1
                // Check signatures on a share of them: certificates and CMS get mutated too.
                if iteration % 8 == 0 { _ = await ReceiptDocumentBuilder.build(data, trust: trust) }
            }
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        #expect(slowest < 2, "slowest input took \(slowest) s")
        print("fuzz: \(iterations) mutated inputs, \(decoded) still decoded, slowest \(Int(slowest * 1e6)) µs")
    }
}

/// Deterministic mutations of the kinds that break parsers.
struct Mutator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(max(bound, 1)))
    }

    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        guard !bytes.isEmpty else { return bytes }
        for _ in 0...next(3) {
            let at = next(bytes.count)
            switch next(7) {
            case 0: bytes[at] ^= UInt8(1 << next(8))                       // bit flip
            case 1: bytes[at] = UInt8(truncatingIfNeeded: next(256))         // random byte
            case 2: bytes.removeLast(min(bytes.count - 1, next(bytes.count))) // truncation
            case 3: bytes.replaceSubrange(at..<min(bytes.count, at + 5), with: [0x84, 0xFF, 0xFF, 0xFF, 0xF0]) // huge length
            case 4: bytes.insert(contentsOf: [0x30, 0x80], at: at)          // indefinite nesting
            case 5: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + next(64))], at: at) // duplicated chunk
            default: bytes[at] = [0x00, 0x80, 0xFF, 0x30, 0x24, 0x2E, 0x7B, 0x22][next(8)] // structural bytes
            }
            if bytes.isEmpty { bytes = [0] }
        }
        return bytes
    }
}
