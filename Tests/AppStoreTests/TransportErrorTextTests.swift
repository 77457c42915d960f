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
        let port = try LoopbackPort.free()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var failure: (any Error)?
        do {
            _ = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/verifyReceipt"), timeout: .seconds(5))
        } catch {
            failure = error
        }
        try await client.shutdown()
        let error = try #require(failure, "nothing listens on port \(port)")
        #expect(TransportErrorText.describe(error, timeout: .seconds(5), peer: "Apple") == "connection refused", "\(String(reflecting: error))")
    }
}
