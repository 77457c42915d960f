import AppStore
import AsyncHTTPClient
import Foundation
import StoreHTTP
import TestSupport
import Testing

/// Why a call got no answer, as an operator reads it on the order, from a real failed call.
@Suite("Transport errors in words")
struct TransportErrorTextTests {
    @Test("A port nobody listens on reads 'connection refused', whatever the client wraps it in")
    func refused() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let failure = try await LoopbackPort.refusing { port -> (any Error)? in
            do {
                _ = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/verifyReceipt"), timeout: .seconds(5))
                return nil
            } catch {
                return error
            }
        }
        try await client.shutdown()
        let error = try #require(failure, "the call to a port nothing listens on failed")
        #expect(TransportErrorText.describe(error, timeout: .seconds(5), peer: "Apple") == "connection refused", "\(String(reflecting: error))")
    }
}
