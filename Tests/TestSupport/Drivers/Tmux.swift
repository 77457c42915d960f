import Foundation
import Testing

/// The real binary in a real terminal: a detached tmux session on its own socket, driven
/// with send-keys and read with capture-pane (reference/terminal-ui.md §3.1).
public struct Tmux: Sendable {
    public let socket: String
    public let session = "iapdesk"

    /// The `iapdesk` executable to run in tmux; suites that call this carry `.needsTmux`.
    public static func binary() throws -> String {
        guard Machine.executable("tmux") != nil else { throw Machine.Missing(what: "tmux (apt-get install tmux)") }
        return try Machine.requireBinary()
    }

    /// A fresh path for a demo store in the temp folder.
    public static func demoStorePath(_ name: String) -> String {
        Scratch.url("iapdesk-demo-\(name)-\(UUID().uuidString).sqlite").path
    }

    /// Removes a demo store and the simulator saved beside it.
    public static func removeDemoStore(_ path: String) {
        for suffix in ["", "-wal", "-shm", ".simulator"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Starts `command` in a `cols`×`rows` terminal with a UTF-8 locale and 256 colours.
    public static func start(_ command: String, cols: Int = 80, rows: Int = 24) throws -> Tmux {
        let tmux = Tmux(socket: Scratch.url("iapdesk-tmux-\(UUID().uuidString.prefix(8))").path)
        try tmux.run("new-session -d -s \(tmux.session) -x \(cols) -y \(rows) -e LANG=C.UTF-8 -e TERM=xterm-256color '\(command)'")
        return tmux
    }

    public func run(_ arguments: String) throws {
        guard system("tmux -S \(socket) \(arguments) >/dev/null 2>&1") == 0 else { throw Machine.Missing(what: "a working tmux: tmux \(arguments) failed") }
    }

    public func send(_ keys: String...) throws {
        for key in keys { try run("send-keys -t \(session) \(key)") }
    }

    /// A `:` command typed as an operator types it, then Enter.
    public func command(_ text: String) throws {
        try send(":")
        try run("send-keys -t \(session) -l '\(text)'")
        try send("Enter")
    }

    public func resize(cols: Int, rows: Int) throws { try run("resize-window -t \(session) -x \(cols) -y \(rows)") }

    /// The screen as text, once `condition` holds on a settled frame (two captures 50 ms
    /// apart agree), or after `timeout` seconds. The first capture that matches can be a
    /// frame still arriving: one screen's title over the previous screen's body.
    /// It waits without holding a thread of the concurrency pool, which other tests' store
    /// transactions need.
    public func screen(waitingFor condition: (String) -> Bool = { _ in true }, timeout: Double = 5) async -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        var previous: String?
        repeat {
            text = await OffPool.run { self.capture() }
            if condition(text), text == previous { return text }
            previous = text
            try? await Task.sleep(for: .milliseconds(50))
        } while Date() < deadline
        return text
    }

    private func capture() -> String {
        let file = socket + ".capture"
        _ = system("tmux -S \(socket) capture-pane -p -t \(session) > \(file) 2>/dev/null")
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    public var isRunning: Bool { system("tmux -S \(socket) has-session -t \(session) >/dev/null 2>&1") == 0 }

    public func stop() {
        _ = system("tmux -S \(socket) kill-server >/dev/null 2>&1")
        try? FileManager.default.removeItem(atPath: socket)
        try? FileManager.default.removeItem(atPath: socket + ".capture")
    }
}
