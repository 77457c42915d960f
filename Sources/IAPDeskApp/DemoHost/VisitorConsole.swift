import Foundation
import IAPDeskCLI

/// The visitor's console: `iapdesk demo` on their seat's copy, a child of `demo-session` on
/// the same terminal. It starts with the signals the session ignores back at their defaults
/// and an environment of terminal settings only (nothing the visitor's ssh client sent
/// beyond what sshd accepted, nothing of the host's), and ends when told, by force if it
/// does not end within 3 s.
struct VisitorConsole: Sendable {
    let pid: pid_t

    /// What the console keeps of the session's environment: how to draw, in which language.
    static let keptEnvironment = ["TERM", "COLORTERM", "LANG", "LC_ALL", "LC_CTYPE", "NO_COLOR", "PATH", "USER", "LOGNAME"]

    static func start(arguments: [String], home: String) throws -> VisitorConsole {
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let inherited = ProcessInfo.processInfo.environment
        var environment = inherited.filter { keptEnvironment.contains($0.key) }
        environment["HOME"] = home
        // glibc's per-thread malloc arenas reserve address space the limit would count.
        environment["MALLOC_ARENA_MAX"] = "2"

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in DemoSessionCommand.endingSignals + [SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // Below the host's own work. Linux keeps a niceness per thread and a new process
        // takes its creator's, so the thread that spawns is the one lowered.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, nil, &attributes, argv, envp)
        guard spawned == 0 else { throw CLIError("cannot start the demo console: \(String(cString: strerror(spawned)))") }
        return VisitorConsole(pid: pid)
    }

    /// Asks the console to end (SIGTERM), and kills it 3 s later if it has not.
    func end() {
        kill(pid, SIGTERM)
        let pid = self.pid
        DispatchQueue.global().asyncAfter(deadline: .now() + 3) { kill(pid, SIGKILL) }
    }

    /// Waits for the console to end; its wait status.
    func wait() async -> Int32 {
        let pid = self.pid
        return await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                done.resume(returning: status)
            }
        }
    }
}
