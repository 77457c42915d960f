import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import Terminal
import TestSupport
import Testing

@testable import Console

/// A visitor's own demo over SSH. The console says on every frame that it is a
/// demo that resets on exit, reads and writes no file the visitor names, and gives its seat
/// back by ending itself when left idle or at its time limit.
@Suite("A visitor's demo console")
struct DemoVisitTests {
    static func withVisit(idle: Duration = .seconds(600), length: Duration = .seconds(1800), _ body: (ConsoleApp, MemoryTerminal) async throws -> Void)
        async throws
    {
        try await withTemporaryStore { store in
            try await SyntheticStore(orders: 50, seed: 3).write(into: store)
            let terminal = MemoryTerminal(rows: 24, cols: 100)
            let session = ConsoleSession(
                store: store, actor: Operator(name: "demo", role: .admin), storeLabel: "a demo of your own",
                visit: DemoVisit(idleTimeout: idle, length: length))
            let app = ConsoleApp(session: session, device: terminal)
            await app.open()
            try await body(app, terminal)
        }
    }

    @Test("The header says it is a demo that resets on exit and how long is left; the visitor is admin of it")
    func banner() async throws {
        try await Self.withVisit { _, terminal in
            let header = try #require(terminal.lastFrame).line(0)
            #expect(header.contains("DEMO · resets on exit · 29 min left") || header.contains("DEMO · resets on exit · 30 min left"), "\(header)")
            #expect(header.contains("demo (admin)"))
        }
    }

    @Test(":export and :theme with a path are refused: a visitor reads and writes no file")
    func noFiles() async throws {
        try await Self.withVisit { app, terminal in
            let target = Scratch.url("iapdesk-visit-\(UUID().uuidString.prefix(8)).csv").path
            await app.command("export \(target)")
            let refusal = try terminal.screenText()
            #expect(refusal.contains("a demo visit saves no files"))
            #expect(!FileManager.default.fileExists(atPath: target))
            for path in ["/etc/passwd", "../../etc/shadow.toml", "x.toml"] {
                await app.command("theme \(path)")
                let answer = try terminal.screenText()
                #expect(answer.contains("themes installed with it, by name"), "\(path)")
            }
            await app.command("theme mono")
            #expect(app.session.theme.name == "mono")
        }
    }

    @Test("Left without a key, the console ends itself after the idle timeout and says why; at the time limit too")
    func limits() async throws {
        try await Self.withVisit(idle: .seconds(1)) { app, _ in
            let started = ContinuousClock.now
            await app.run(refreshEvery: .milliseconds(200))
            #expect(app.endedBecause == "this demo was closed after 1 s without a key")
            #expect(ContinuousClock.now - started < .seconds(10))
        }
        try await Self.withVisit(length: .milliseconds(500)) { app, terminal in
            terminal.type("j")
            await app.run(refreshEvery: .milliseconds(200))
            #expect(app.endedBecause == "this demo has reached its time limit")
        }
    }

    @Test("In the last minute before an idle close the visitor is warned; a key puts the close off")
    func idleWarning() {
        let visit = DemoVisit(idleTimeout: .seconds(600), length: .seconds(1800))
        let now = ContinuousClock.now
        #expect(visit.idleWarning(now: now, lastKey: now - .seconds(500)) == nil)
        #expect(visit.idleWarning(now: now, lastKey: now - .seconds(570)) == "no key for a while: this demo closes in 30 s unless you press one")
        #expect(visit.ending(now: now, lastKey: now - .seconds(599)) == nil)
        #expect(visit.ending(now: now, lastKey: now - .seconds(600)) == "this demo was closed after 10 min without a key")
    }
}
