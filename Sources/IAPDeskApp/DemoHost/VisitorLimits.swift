import ArgumentParser
import Console
import Foundation
import IAPDeskCLI

/// What bounds one visitor's console: set by `demo-session` on the `demo` it starts (hidden
/// options: the visitor types none of them), and applied by that process to itself before
/// it opens anything, as hard limits it cannot raise again.
struct VisitorLimits: ParsableArguments {
    @Option(name: .customLong("visitor-seconds"), help: .hidden) var seconds: Int?
    @Option(name: .customLong("visitor-idle-seconds"), help: .hidden) var idleSeconds = 600
    @Option(name: .customLong("visitor-memory-mib"), help: .hidden) var memoryMiB = 1024
    @Option(name: .customLong("visitor-cpu-seconds"), help: .hidden) var cpuSeconds = 300

    /// A visit when `demo-session` started this process, else nil (an ordinary `demo`).
    var visit: DemoVisit? { seconds.map { DemoVisit(idleTimeout: .seconds(idleSeconds), length: .seconds($0)) } }

    /// The words `demo-session` passes on.
    var arguments: [String] {
        [
            "--visitor-seconds", "\(seconds ?? 1800)", "--visitor-idle-seconds", "\(idleSeconds)", "--visitor-memory-mib", "\(memoryMiB)",
            "--visitor-cpu-seconds", "\(cpuSeconds)",
        ]
    }

    /// Address space (what the process may map: its memory, bounded before the host
    /// swaps), CPU seconds (SIGXCPU, then SIGKILL 5 s later), files no larger than 1 GiB, no
    /// core dumps of a visitor's data. (Its lower priority comes from `VisitorConsole`.)
    func apply() throws {
        let limits: [(Int32, rlim_t, rlim_t, String)] = [
            (Int32(RLIMIT_AS.rawValue), rlim_t(memoryMiB) << 20, rlim_t(memoryMiB) << 20, "memory"),
            (Int32(RLIMIT_CPU.rawValue), rlim_t(cpuSeconds), rlim_t(cpuSeconds + 5), "CPU"),
            (Int32(RLIMIT_FSIZE.rawValue), 1 << 30, 1 << 30, "file size"),
            (Int32(RLIMIT_CORE.rawValue), 0, 0, "core dumps"),
        ]
        for (resource, soft, hard, name) in limits {
            var limit = rlimit(rlim_cur: soft, rlim_max: hard)
            guard setrlimit(__rlimit_resource_t(UInt32(resource)), &limit) == 0 else {
                throw CLIError("cannot limit the visit's \(name): \(String(cString: strerror(errno)))")
            }
        }
    }
}
