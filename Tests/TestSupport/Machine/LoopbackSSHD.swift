import Foundation
import Testing

/// A real OpenSSH server on a free loopback port, for the recipes the Security article gives (the
/// operators' `ssh-session`, the demo host's `demo-session`): its own host key, config and
/// pid file in `folder`, and the recipe's `Match` block as written. Needs root.
public struct LoopbackSSHD: Sendable {
    public let port: Int
    public let folder: String

    /// Starts sshd with `match` (the recipe's `Match …` block, indented as in sshd_config).
    public static func start(in folder: String, match: String, authorizedKeys: String? = nil) throws -> LoopbackSSHD {
        let port = try LoopbackPort.free()
        for step in [
            "ssh-keygen -q -t ed25519 -N '' -f \(folder)/host_key",
            """
            cat > \(folder)/sshd_config <<'EOF'
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(folder)/host_key
            PidFile \(folder)/sshd.pid
            \(authorizedKeys.map { "AuthorizedKeysFile \($0)" } ?? "")
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            UsePAM no
            StrictModes no
            \(match)
            EOF
            """,
            "mkdir -p /run/sshd && /usr/sbin/sshd -f \(folder)/sshd_config -E \(folder)/sshd.log",
        ] {
            let (status, output) = Machine.shell(step)
            try #require(status == 0, "\(step): \(output)")
        }
        return LoopbackSSHD(port: port, folder: folder)
    }

    /// `ssh` to `user` on this server, options for a test (no host key prompts, no agent).
    public func ssh(_ user: String, options: String = "") -> String {
        "ssh -q -p \(port) -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR \(options) \(user)@127.0.0.1"
    }

    /// Runs `command` until sshd answers (it takes a moment to listen): exit status 255 is ssh's own failure.
    public func firstAnswer(_ command: String) async throws -> (status: Int32, output: String) {
        var answer = (status: Int32(255), output: "")
        for _ in 0..<50 where answer.status == 255 {
            answer = await OffPool.run { Machine.shell(command) }
            if answer.status == 255 { try await Task.sleep(for: .milliseconds(100)) }
        }
        return answer
    }

    public func stop() { _ = Machine.shell("kill $(cat \(folder)/sshd.pid) 2>/dev/null") }
}
