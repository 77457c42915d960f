import Foundation
import OrderDomain
import Receipts
import StoreHTTP

/// Apple's verifyReceipt with the environment rule (R2): the first call goes to production
/// (or sandbox for a sandbox store); 21007 resends to sandbox, 21008 to production, at most
/// once each way. The report names the environment that answered last and keeps its body
/// verbatim; the store classifies it (R3).
public struct VerifyReceiptClient: Sendable {
    let http: StoreHTTP
    let firstApp: VerifyReceiptEndpoints
    /// The store's other apps' endpoints (their shared secrets), by bundle id.
    let otherApps: [String: VerifyReceiptEndpoints]

    public init(http: StoreHTTP, endpoints: VerifyReceiptEndpoints, otherApps: [String: VerifyReceiptEndpoints] = [:]) {
        self.http = http
        self.firstApp = endpoints
        self.otherApps = otherApps
    }

    /// Asks as the app ``ActingApp`` names (its shared secret), else as the first app.
    public func verify(receiptData: String) async -> VerificationReport {
        let endpoints = ActingApp.bundleId.flatMap { otherApps[$0] } ?? firstApp
        var environment = endpoints.first
        var totalLatency = 0
        var visited: Set<AppleEnvironment> = []
        while true {
            visited.insert(environment)
            let exchange = await http.send(.POST, endpoints.url(environment), body: Self.requestBody(receiptData, endpoints))
            totalLatency += exchange.latencyMs
            var report = Self.report(exchange, environment: environment)
            report.latencyMs = totalLatency
            report.sharedSecretSent = endpoints.sharedSecret != nil
            let next: AppleEnvironment? =
                switch report.appleStatus {
                case 21007: .sandbox
                case 21008: .production
                default: nil
                }
            guard let next, !visited.contains(next) else { return report }
            environment = next
        }
    }

    /// `{"receipt-data": …, "password": …, "exclude-old-transactions": false}`, written out:
    /// Foundation's JSONSerialization was most of the call's own time on a 4 KB receipt.
    static func requestBody(_ receiptData: String, _ endpoints: VerifyReceiptEndpoints) -> [UInt8] {
        var body = Array(#"{"receipt-data":"#.utf8)
        appendQuoted(receiptData, to: &body)
        if let secret = endpoints.sharedSecret {
            body += Array(#","password":"#.utf8)
            appendQuoted(secret.value, to: &body)
        }
        body += Array(#","exclude-old-transactions":false}"#.utf8)
        return body
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    private static func appendQuoted(_ text: String, to body: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        body.reserveCapacity(body.count + text.utf8.count + 2)
        body.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): body += [UInt8(ascii: "\\"), byte]
            case ..<0x20: body += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: body.append(byte)
            }
        }
        body.append(UInt8(ascii: "\""))
    }

    /// Reads one answer. A body that is not Apple's JSON leaves `appleStatus` nil, which R3
    /// treats as retryable: a proxy's error page is not the player's fault.
    static func report(_ exchange: Exchange, environment: AppleEnvironment) -> VerificationReport {
        var report = VerificationReport(
            method: .verifyReceipt, environment: environment, appleStatus: nil, httpStatus: exchange.httpStatus,
            transportError: exchange.transportError, latencyMs: exchange.latencyMs, body: exchange.text)
        guard exchange.transportError == nil, exchange.httpStatus == 200 else { return report }
        do {
            let answer = try VerifyReceiptResponse.decode(exchange.body)
            report.appleStatus = answer.status
            report.isRetryable = answer.isRetryable
            if let reported = answer.environment.flatMap(AppleEnvironment.init(rawValue:)) { report.environment = reported }
            if answer.status == 0 || answer.status == 21006 { report.content = AppleReceiptContent(answer) }
        } catch {
            // Status readable but a field is not (Apple's or a proxy's mangling): keep the status,
            // no content, so the store retries rather than acting on half an answer.
            report.appleStatus = Self.statusOnly(exchange.body)
        }
        return report
    }

    private static func statusOnly(_ body: [UInt8]) -> Int? {
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["status"] as? Int
    }
}
