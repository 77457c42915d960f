import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// The Security article's deployment recipe, run as written on this machine: a real sshd
/// on loopback, an operator's key, `ForceCommand` through sudo into the service account that
/// alone can read the store. The operator acts under their SSH name with their store role,
/// cannot open the store themselves, and cannot run anything but iapdesk's operator commands.
@Suite("The SSH deployment recipe", .takesTurns)
struct SSHRecipeTests {
    private static func sh(_ command: String) async -> (Int32, String) { await OffPool.run { Machine.shell(command) } }

    static let tools = ["/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen", "/usr/bin/sudo", "/usr/sbin/useradd", "/usr/bin/tmux"]
    static let toolsNeeded = "root, sshd, ssh, sudo, useradd and tmux (apt-get install openssh-server openssh-client sudo tmux)"
    static func hasTools() -> Bool { Machine.isRoot && tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    @Test(
        "ssh operator@host runs iapdesk as the service account: console and commands under the SSH name, nothing else, no direct access",
        .needsBinary, .needs(toolsNeeded) { hasTools() })
    func recipe() async throws {
        let binary = try Machine.requireBinary()
        guard Self.hasTools() else { throw Machine.Missing(what: Self.toolsNeeded) }
        let tag = String(UInt32.random(in: 10_000...99_999))
        let (service, person, group) = ("iapdsvc\(tag)", "iapdop\(tag)", "iapdops\(tag)")
        let folder = "/tmp/iapdesk-ssh-\(tag)"
        let sudoers = "/etc/sudoers.d/iapdesk-test-\(tag)"
        defer {
            _ = Machine.shell("userdel \(person); userdel \(service); groupdel \(group); rm -rf \(folder) \(sudoers)")
        }
        // The service account owns the store and its configuration; the operator is in the ops group.
        let store = "\(folder)/service/store.sqlite"
        for step in [
            "mkdir -p \(folder)/keys \(folder)/service/.config/iapdesk && chmod 755 \(folder)",
            "groupadd \(group) && useradd -M -d \(folder)/service -s /usr/sbin/nologin \(service)",
            "useradd -M -d \(folder) -s /bin/sh -G \(group) \(person) && usermod -p '*' \(person)",
            "cp \(binary) \(folder)/iapdesk && chmod 755 \(folder)/iapdesk",
            "printf '[store]\\ndb = \"\(store)\"\\nbundle_id = \"\(DemoCatalogue.bundleId)\"\\n' > \(folder)/service/.config/iapdesk/iapdesk.toml",
        ] {
            let (status, output) = await Self.sh(step)
            try #require(status == 0, "\(step): \(output)")
        }
        let seeded = try await OrderStore.open(.sqlite(path: store), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        try await SyntheticStore(orders: 2000, seed: 4).write(into: seeded)
        try await seeded.operators.add(name: "root", role: .admin, by: Operator(name: "root", role: .admin))
        try await seeded.operators.add(name: person, role: .support, by: Operator(name: "root", role: .admin))
        let stuck = try #require(try await seeded.orders.page(OrderFilter(state: .verifyRetry), limit: 1).items.first?.orderId)
        await seeded.close()
        for step in [
            "chown -R \(service) \(folder)/service && chmod 700 \(folder)/service",
            // sudo: the ops group may run exactly `iapdesk ssh-session` as the service account, keeping what ssh was asked to run.
            "printf 'Defaults:%%\(group) env_keep += \"SSH_ORIGINAL_COMMAND\"\\n%%\(group) ALL=(\(service)) NOPASSWD: \(folder)/iapdesk ssh-session\\n' > \(sudoers) && chmod 440 \(sudoers) && visudo -c -f \(sudoers)",
            "ssh-keygen -q -t ed25519 -N '' -f \(folder)/operator_key && cp \(folder)/operator_key.pub \(folder)/keys/\(person)",
        ] {
            let (status, output) = await Self.sh(step)
            try #require(status == 0, "\(step): \(output)")
        }
        let sshd = try LoopbackSSHD.start(
            in: folder,
            match: """
                Match Group \(group)
                  ForceCommand exec sudo -n -u \(service) \(folder)/iapdesk ssh-session
                  AllowTcpForwarding no
                  X11Forwarding no
                """, authorizedKeys: "\(folder)/keys/%u")
        defer { sshd.stop() }
        let ssh = sshd.ssh(person, options: "-i \(folder)/operator_key")
        var (status, output) = try await sshd.firstAnswer("\(ssh) order show \(stuck)")
        #expect(status == 0 && output.contains(stuck), "\(output)")

        // A grant with a quoted reason, acted under the SSH name with the store's role.
        (status, output) = await Self.sh("\(ssh) order grant \(stuck) --reason \"'ticket 5: paid, Apple timed out'\"")
        #expect(status == 0 && output.contains("now delivered"), "\(output)")
        (status, output) = await Self.sh("\(ssh) audit log --limit 1")
        #expect(output.contains("\(person)  support  grant") && output.contains("ticket 5: paid, Apple timed out"), "\(output)")

        // Nothing but the operator's commands, and no shell: `;` and `$( )` are plain words.
        (status, output) = await Self.sh("\(ssh) 'order list --limit 1; id'")
        #expect(status != 0 && !output.contains("uid="), "\(output)")
        (status, output) = await Self.sh("\(ssh) seed --orders 5")
        #expect(status != 0 && output.contains("over SSH, iapdesk runs"), "\(output)")
        (status, output) = await Self.sh("\(ssh) 'order list $(id)'")
        #expect(status != 0 && !output.contains("uid="), "\(output)")

        // The operator on their own cannot read the store or the service's configuration.
        (status, output) = await Self.sh("su \(person) -s /bin/sh -c '\(folder)/iapdesk order list --db \(store)'")
        #expect(status != 0, "\(output)")
        (status, output) = await Self.sh("su \(person) -s /bin/sh -c 'cat \(folder)/service/.config/iapdesk/iapdesk.toml'")
        #expect(status != 0, "\(output)")

        // The console, in a terminal over ssh, names the operator.
        let terminal = try Tmux.start("\(ssh) -tt", cols: 100, rows: 30)
        defer { terminal.stop() }
        // The frame arrives over ssh in pieces: wait for its header and its table, not the first piece.
        let screen = await terminal.screen(waitingFor: { $0.contains("\(person) (support)") && $0.contains("Orders") }, timeout: 20)
        #expect(screen.contains("\(person) (support)") && screen.contains("Orders"), "\(screen)")
        try terminal.send("q")
    }
}

@Suite("SSH command words")
struct ShellWordsTests {
    @Test("Split as sh quotes them, nothing expanded; an unterminated quote is refused")
    func split() throws {
        #expect(try ShellWords.split("") == [])
        #expect(try ShellWords.split("  order   grant o1 ") == ["order", "grant", "o1"])
        #expect(try ShellWords.split("--reason 'ticket 5: paid'") == ["--reason", "ticket 5: paid"])
        #expect(try ShellWords.split(#"--reason "say \"hi\" \n" x"#) == ["--reason", #"say "hi" \n"#, "x"])
        #expect(try ShellWords.split(#"a\ b $(id) `id` $HOME ;"#) == ["a b", "$(id)", "`id`", "$HOME", ";"])
        #expect(try ShellWords.split("''") == [""])
        #expect(throws: ShellWords.Unterminated.self) { try ShellWords.split("order 'open") }
    }
}
