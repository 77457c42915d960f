import Foundation
import OrderDomain
import Receipts

/// Reads back an answer stored with a verification attempt (a verifyReceipt body, or the
/// Server API answers `ServerAPIVerification` keeps): the same content the rules saw, with
/// every JWS verified again against `trust`.
public struct StoredAnswers: StoredAnswerReader {
    public let trust: TrustRoots

    public init(trust: TrustRoots) { self.trust = trust }

    public func content(ofStoredAnswer body: String) async -> AppleReceiptContent? {
        let bytes = Array(body.utf8)
        guard let record = ServerAPIAnswerRecord(stored: body) else {
            guard let answer = try? VerifyReceiptResponse.decode(bytes), answer.status == 0 || answer.status == 21006 else { return nil }
            return AppleReceiptContent(answer)
        }
        return await record.content(trust: trust)
    }
}
