import Foundation
import TestSupport
import Testing

/// The OpenAPI document is the contract: schemathesis (PyPI) generates requests from it
/// against a live `serve` — every documented input, valid and invalid — and checks that
/// nothing answers 5xx and every answer matches the document.
@Suite("serve: the OpenAPI contract", .serialized, .takesTurns, .needs("schemathesis: pip install schemathesis") { Machine.executable("schemathesis") != nil })
struct SchemathesisTests {
    @Test("schemathesis over /openapi.yaml against a live serve: no 5xx, status codes, content types and bodies as documented", arguments: Backend.all)
    func contract(backend: Backend) async throws {
        guard let schemathesis = Machine.executable("schemathesis") else { throw Machine.Missing(what: "schemathesis: pip install schemathesis") }
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            // Orders the generated requests can find, beside all the ones they invent.
            _ = try await serve.call(.POST, "/v1/orders", json: #"{"order_id":"o-1","account_id":"a-1","product_id":"coins_60"}"#)
            // Events to pull, so a generated long poll from the start has something to return
            // at once (one after the newest event still waits, hence the longer time-out).
            for order in ["e-1", "e-2"] {
                try await OutboxTests.buy(serve, order: order, account: "a-1")
                _ = try await IntakeTests.waitFor("delivered", order: order, in: serve)
            }
            let arguments = [
                "run", serve.baseURL + "/openapi.yaml", "-H", "Authorization: Bearer \(IntakeTests.token)",
                "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
                "--max-examples", "40", "--workers", "1", "--seed", "1", "--no-color", "--request-timeout", "15",
            ]
            // Its caches go to a folder of their own, not into the checkout.
            let scratch = Scratch.url("iapdesk-schemathesis-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let finished = try await ChildProcess.run(schemathesis, arguments, in: scratch, timeout: .seconds(900))
            #expect(finished.status == 0, "schemathesis found problems:\n\(finished.output.suffix(6_000))")
        }
    }
}
