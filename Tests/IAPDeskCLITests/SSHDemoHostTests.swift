import Foundation
import TestSupport
import Testing

/// The Security article's demo host recipe, run as written on this machine: a real sshd on
/// loopback, a password-less `demo` account whose `ForceCommand` is `iapdesk demo-session`,
/// and visitors who type nothing but `ssh -t demo@host`. Each gets a store of their own;
/// the seats are bounded; a dropped connection leaves no process and no file behind.
@Suite("The demo host: ssh demo@host", .takesTurns)
struct SSHDemoHostTests {
    static let tools = ["/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen", "/usr/sbin/useradd", "/usr/bin/passwd", "/usr/bin/tmux"]
    static let toolsNeeded = "root, sshd, ssh, useradd, passwd and tmux (apt-get install openssh-server openssh-client tmux)"
    static func hasTools() -> Bool { Machine.isRoot && tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    /// What is still running as the demo account (zombies, already ended, left out).
    static func processes(of user: String) -> [String] {
        Machine.shell("ps -u \(user) -o stat=,args=").output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("Z") }
    }

    @Test(
        "Two visitors at once each have their own store; the third is asked to come back; a dropped connection and a quit leave no process and no file",
        .needsBinary, .needs(toolsNeeded) { hasTools() })
    func visitors() async throws {
        let binary = try Machine.requireBinary()
        guard Self.hasTools() else { throw Machine.Missing(what: Self.toolsNeeded) }
        let tag = String(UInt32.random(in: 10_000...99_999))
        let user = "iapdemo\(tag)"
        let folder = "/tmp/iapdesk-demohost-\(tag)"
        let (template, sessions) = ("\(folder)/template", "\(folder)/sessions")
        defer { _ = Machine.shell("pkill -9 -u \(user); userdel \(user); rm -rf \(folder)") }
        for step in [
            "mkdir -p \(folder) && chmod 755 \(folder)",
            // The recipe's account: no password, so that anyone may connect; no shell it can reach.
            "useradd -M -d \(sessions) -s /bin/sh \(user) && passwd -d \(user)",
            "cp \(binary) \(folder)/iapdesk && chmod 755 \(folder)/iapdesk",
            "\(folder)/iapdesk demo --build-template \(template) --orders 2000",
            "mkdir -m 700 \(sessions) && chown \(user) \(sessions)",
        ] {
            let (status, output) = Machine.shell(step)
            try #require(status == 0, "\(step): \(output)")
        }
        let sshd = try LoopbackSSHD.start(
            in: folder,
            match: """
                Match User \(user)
                  PasswordAuthentication yes
                  PermitEmptyPasswords yes
                  AuthenticationMethods none
                  ForceCommand exec \(folder)/iapdesk demo-session --template \(template) --sessions \(sessions) --max-sessions 2
                  DisableForwarding yes
                  PermitUserRC no
                """)
        defer { sshd.stop() }
        let ssh = sshd.ssh(user)
        var (status, output) = try await sshd.firstAnswer("\(ssh) -T")
        // No terminal, or a command after the host: refused, with what to type instead.
        #expect(status != 0 && output.contains("connect with `ssh -t`"), "\(output)")
        (status, output) = await OffPool.run { Machine.shell("\(ssh) -tt 'order list; id' < /dev/null") }
        #expect(status != 0 && output.contains("the demo is the console and nothing else") && !output.contains("uid="), "\(output)")

        // Two visitors at once, each on a console of their own.
        func visit() async throws -> (Tmux, Duration) {
            let started = ContinuousClock.now
            let terminal = try Tmux.start("\(ssh) -tt", cols: 100, rows: 30)
            let screen = await terminal.screen(waitingFor: { $0.contains("resets on exit") && $0.contains("Orders [") }, timeout: 30)
            #expect(screen.contains("DEMO · resets on exit") && screen.contains("\(user) (admin)"), "\(screen)")
            return (terminal, ContinuousClock.now - started)
        }
        let (first, firstWait) = try await visit()
        defer { first.stop() }
        let (second, secondWait) = try await visit()
        defer { second.stop() }
        print("demo host: first frame over ssh after \(firstWait) and \(secondWait) (debug build, loopback, tmux polling at 50 ms)")

        // Each console runs under the limits, at a lower priority than the host's own work.
        let console = Machine.shell("pgrep -u \(user) -f 'iapdesk demo --db'").output.split(separator: "\n").first.map(String.init) ?? ""
        let limits = (try? String(contentsOfFile: "/proc/\(console)/limits", encoding: .utf8)) ?? ""
        #expect(limits.contains(/Max address space\s+1073741824\s+1073741824/) && limits.contains(/Max cpu time\s+300\s+305/), "\(limits)")
        #expect(limits.contains(/Max core file size\s+0\s+0/), "\(limits)")
        #expect(Machine.shell("ps -o ni= -p \(console)").output.trimmingCharacters(in: .whitespacesAndNewlines) == "10")

        // The third visitor is told to come back.
        (status, output) = await OffPool.run { Machine.shell("\(ssh) -tt < /dev/null") }
        #expect(status != 0 && output.contains("all 2 demo seats are taken right now; please come back in a few minutes"), "\(output)")

        // The first visitor grants a stuck order; the second visitor's store knows nothing of it.
        try first.command("stuck")
        _ = await first.screen { $0.contains("Stuck [") }
        try first.send("Enter")
        let detail = await first.screen { $0.contains("Timeline") }
        let orderId = try #require(detail.firstMatch(of: /Order (\S+)/).map { String($0.1) }, "\(detail)")
        try first.send("g")
        _ = await first.screen { $0.contains("Reason:") }
        try first.run("send-keys -t \(first.session) -l 'ticket 201: a visitor grants'")
        try first.send("Enter")
        #expect(await first.screen { $0.contains("now delivered") }.contains("granted"))
        try first.command("audit")
        #expect(await first.screen { $0.contains("Audit log") && $0.contains("ticket 201") }.contains("ticket 201"))

        try second.command("order \(orderId)")
        let elsewhere = await second.screen { $0.contains("Order \(orderId)") && $0.contains("Timeline") }
        #expect(elsewhere.contains("Order \(orderId)") && !elsewhere.contains("ticket 201") && !elsewhere.contains("now delivered"), "\(elsewhere)")
        try second.command("audit")
        let secondAudit = await second.screen { $0.contains("Audit log") }
        #expect(secondAudit.contains("Audit log") && !secondAudit.contains("ticket 201"), "\(secondAudit)")

        // The first visitor's connection drops (the ssh client killed): their console ends,
        // their copy is deleted, their seat is free again.
        let client = Machine.shell("tmux -S \(first.socket) list-panes -t \(first.session) -F '#{pane_pid}'").output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        _ = Machine.shell("kill -9 \(client)")
        let dropped = try await eventually(within: 20) {
            !FileManager.default.fileExists(atPath: "\(sessions)/0") && !Self.processes(of: user).contains { $0.contains("\(sessions)/0/") }
        }
        #expect(dropped, "after a dropped connection: \(Self.processes(of: user)); \((try? FileManager.default.contentsOfDirectory(atPath: sessions)) ?? [])")

        // The second visitor quits: nothing of either visit is left but the seats' lock files.
        try second.command("quit")
        let quit = try await eventually(within: 20) {
            Self.processes(of: user).isEmpty && ((try? FileManager.default.contentsOfDirectory(atPath: sessions)) ?? []).allSatisfy { $0.hasSuffix(".lock") }
        }
        #expect(quit, "after quitting: \(Self.processes(of: user)); \((try? FileManager.default.contentsOfDirectory(atPath: sessions)) ?? [])")

        // Even the session killed outright: its console, orphaned, ends itself; the copy it
        // leaves is removed by the next visitor, who gets the seat.
        let third = try await visit().0
        defer { third.stop() }
        _ = Machine.shell("pkill -9 -u \(user) -f demo-session")
        let orphanEnded = try await eventually(within: 20) { !Self.processes(of: user).contains { $0.contains("iapdesk demo --db") } }
        #expect(orphanEnded, "\(Self.processes(of: user))")
        let fourth = try await visit().0
        try fourth.command("quit")
        let swept = try await eventually(within: 20) {
            Self.processes(of: user).isEmpty && ((try? FileManager.default.contentsOfDirectory(atPath: sessions)) ?? []).allSatisfy { $0.hasSuffix(".lock") }
        }
        #expect(swept, "after a killed session: \(Self.processes(of: user)); \((try? FileManager.default.contentsOfDirectory(atPath: sessions)) ?? [])")
    }
}
