import TestSupport
import Testing

@testable import OrderStore

/// Issue 15: the timeline the console and `order show` both print says only what is known,
/// and a long run of the same answer from Apple does not push the grant out of view.
@Suite("The order timeline")
struct TimelineStoreTests {
    @Test("Ten calls with the same answer show as the first, one line for eight, the last; no empty fields, no dangling colon", arguments: Backend.all)
    func collapsedAndPlain(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await timedOut(store, calls: 10)
            _ = try await store.applyVerification(orderId: "o1", submissionId: submission, report: statusReport(21005), at: t0 + .minutes(20))
            try await store.write(as: root, now: t0 + .minutes(30)) { tx in tx.audit("reverify", target: .order("o1")) }

            let lines = try await store.orderDetail("o1").timeline.map(\.text)
            let calls = lines.filter { $0.hasPrefix("verify") || $0.hasPrefix("…") }
            #expect(calls.count == 4, "\(calls)")
            #expect(calls[1] == "… 8 more calls to Apple with the same answer", "\(calls)")
            #expect(calls[0] == calls[2])  // the first and the last of the run read alike
            #expect(
                calls[0].contains("timed out after 30 s") && !calls[0].contains("no status") && !calls[0].contains("HTTP -")
                    && !calls[0].contains("Production"), "\(calls[0])")
            #expect(calls[3].contains("status 21005"), "\(calls[3])")
            #expect(lines.contains("audit #\(try await store.auditLog(limit: 1).first?.seq ?? 0) reverify by root (admin)"), "\(lines)")
        }
    }

    @Test("Three calls with the same answer show as three: a line for one hidden call would save nothing", arguments: Backend.all)
    func threeShownWhole(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await timedOut(store, calls: 3)
            let calls = try await store.orderDetail("o1").timeline.filter { $0.text.hasPrefix("verify") || $0.text.hasPrefix("…") }
            #expect(calls.count == 3 && calls.allSatisfy { $0.text.hasPrefix("verify") }, "\(calls.map(\.text))")
            #expect(Set(calls.map(\.at)).count == 3, "each call at its own time")
        }
    }

    /// Order o1, paid, and `calls` calls to Apple a minute apart, each timing out. Returns
    /// the receipt's submission.
    private func timedOut(_ store: OrderStore, calls: Int64) async throws -> Int64 {
        let submission = try await store.paidOrder("o1", account: "a1")
        for attempt in 0..<calls {
            _ = try await store.applyVerification(orderId: "o1", submissionId: submission, report: outage, at: t0 + .minutes(attempt + 1))
        }
        return submission
    }
}
