import Foundation
import TestSupport
import Testing

@testable import Receipts

/// Mutated real inputs never crash or hang the decoder: each gives a value or an error.
/// The default run is short; `IAPDESK_FUZZ_ITERATIONS` (or `iapdesk-bench fuzz`) runs more.
@Suite(.needsFixtures) struct FuzzTests {
    @Test func mutatedFixturesGiveErrorsNotCrashes() async throws {
        var seeds: [[UInt8]] = []
        for folder in ["receipts", "jws", "verifyreceipt-json", "legacy-transaction-receipts"] {
            for path in try Fixtures.files(in: folder) {
                let data = try Fixtures.data(path)
                seeds.append(Array(data))
                // Also the DER form of base64 receipts, where the BER parser is hit directly.
                if folder == "receipts", let der = Data(base64Encoded: String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }) {
                    seeds.append(Array(der))
                }
            }
        }
        #expect(!seeds.isEmpty, "the fixtures hold inputs to mutate")
        let iterations = Int(ProcessInfo.processInfo.environment["IAPDESK_FUZZ_ITERATIONS"] ?? "") ?? 4000
        let trust = try TestTrust.apple()
        var mutator = InputMutator(seed: 0x1AD_DE5C)
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
        // A pathological input (a parse that blows up) takes minutes; under the whole suite's
        // load one input's await has waited over 3 s for a thread, which is not the parser.
        #expect(slowest < 10, "slowest input took \(slowest) s")
        print("fuzz: \(iterations) mutated inputs, \(decoded) still decoded, slowest \(Int(slowest * 1e6)) µs")
    }
}

/// Numeric edge cases in every date a client can hand us: each is refused with an error
/// naming the field, or read as a date a later integer conversion can hold — never a trap.
@Suite struct NumericDateTests {
    static let hostile = [
        "1e30", "-1e30", "1e308", "-1e308", "inf", "-inf", "nan", "NaN", "9223372036854775808", "-9223372036854775809",
        "1.7976931348623157e308", "-1", "0", "253402300800000",
    ]

    @Test(arguments: hostile)
    func verifyReceiptDates(_ value: String) {
        for field in ["purchase_date_ms", "expires_date_ms", "cancellation_date_ms", "purchase_date"] {
            for encoded in ["\"\(value)\"", value] {
                let body = #"{"status":0,"receipt":{"bundle_id":"b","in_app":[{"transaction_id":"1","product_id":"p","# + "\"\(field)\":\(encoded)}]}}"
                guard let answer = try? VerifyReceiptResponse.decode(Array(body.utf8)) else { continue }  // refused: fine
                for row in answer.receipt?.inApp ?? [] {
                    for date in [row.purchaseDate, row.expiresDate, row.cancellationDate].compactMap({ $0 }) {
                        #expect(AppleDate.plausibleMilliseconds.contains(date.timeIntervalSince1970 * 1000), "\(field)=\(value)")
                    }
                }
            }
        }
    }

    @Test(arguments: hostile)
    func jwsDates(_ value: String) throws {
        let json = #"{"transactionId":"1","purchaseDate":"# + value + "}"
        if let decoded = try? JSONDecoder().decode(JWSTransaction.self, from: Data(json.utf8)), let date = decoded.purchaseDate {
            #expect(AppleDate.plausibleMilliseconds.contains(Double(date.milliseconds)))
        }
    }
}
