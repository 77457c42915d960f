import AppStoreSimulator
import ArgumentParser
import Foundation
import OrderDomain
import Receipts
import Server
import SyntheticData

/// `iapdesk-bench notification-decode`: the CPU an acknowledgement spends before it is
/// stored — Apple's signed notification (a REFUND_DECLINED with its signed transaction,
/// signed by the simulator) split, checked and decoded, and each part of that alone.
struct NotificationDecodeBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notification-decode", abstract: "Microseconds to check and decode one of Apple's signed notifications.")

    @Option(help: "Timed repetitions per figure.")
    var repetitions = 2_000

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "bench-secret")
        let purchase = await simulator.ledger.purchase(appleId: "bench@icloud", productId: "coins_60", kind: .consumable)
        let signed = try await simulator.notification("REFUND_DECLINED", about: purchase).signedPayload
        let decoder = NotificationDecoder(trust: simulator.trustRoots, bundleIds: [DemoCatalogue.bundleId])
        guard await decoder.decode(signedPayload: signed, endpoint: .production, via: .receiver).rejection == nil else {
            throw ValidationError("the simulator's notification did not check out")
        }
        let jws = try JWS(compact: signed)
        let figures: [(String, String, Double)] = [
            (
                "decode_us", "whole: split, both signatures and chains, payloads decoded",
                try await medianMicroseconds(repetitions) { _ = await decoder.decode(signedPayload: signed, endpoint: .production, via: .receiver) }
            ),
            ("split_us", "the outer JWS split and its header and envelope read", try await medianMicroseconds(repetitions) { _ = try JWS(compact: signed) }),
            (
                "check_us", "the outer JWS's signature and chain checked",
                try await medianMicroseconds(repetitions) { try await jws.check(trust: simulator.trustRoots, bundleId: nil) }
            ),
            ("payload_us", "the outer payload decoded", try await medianMicroseconds(repetitions) { _ = try jws.decodePayload(ServerNotification.self) }),
        ]
        let bytes = signed.utf8.count
        if json {
            var object: [String: Any] = ["repetitions": repetitions, "bytes": bytes]
            for (key, _, value) in figures { object[key] = value }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        print("median µs over \(repetitions) runs, one notification of \(bytes) bytes")
        for (_, label, value) in figures { print(label.padding(toLength: 64, withPad: " ", startingAt: 0) + String(format: "%8.1f", value)) }
    }
}
