import ArgumentParser
import Foundation
import IAPDeskCLI

/// `iapdesk demo-session`: what sshd's `ForceCommand` runs for the demo account, so that
/// `ssh -t demo@host` opens a demo of the visitor's own. It takes a seat (`DemoSeat`, at
/// most `--max-sessions`), copies the template into it, runs the console there as a child
/// (`VisitorConsole`: its own loopback ports, limits it applies to itself, idle and time
/// limits), and when the child ends, however it ends, or the connection drops (SIGHUP),
/// deletes the copy and gives the seat back. The visitor chooses nothing: a command typed
/// after the host is refused, and no word of theirs reaches a file path.
struct DemoSessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-session",
        abstract: "For a demo host's sshd ForceCommand: each visitor gets a console on a copy of the demo template, deleted when they leave.")

    @Option(help: ArgumentHelp("The template `iapdesk demo --build-template DIR` built (readable by this account).", valueName: "DIR"))
    var template: String
    @Option(help: ArgumentHelp("Where visitors' copies live while they are connected: a folder only this account may write.", valueName: "DIR"))
    var sessions = "/var/tmp/iapdesk-demo"
    @Option(help: ArgumentHelp("Visitors at once; the next one is asked to come back later.", valueName: "count")) var maxSessions = 8
    @Option(help: ArgumentHelp("Seconds without a key before a visit ends.", valueName: "seconds")) var idleTimeout = 600
    @Option(help: ArgumentHelp("Seconds a visit may last.", valueName: "seconds")) var timeLimit = 1800
    @Option(help: ArgumentHelp("Address space per visit, in MiB (RLIMIT_AS; at least 256).", valueName: "MiB")) var memory = 1024
    @Option(help: ArgumentHelp("CPU seconds per visit (RLIMIT_CPU; SIGKILL 5 s past it).", valueName: "seconds")) var cpu = 300
    @Option(help: ArgumentHelp("A theme installed on the host, by name.", valueName: "name")) var theme = "default"

    /// How a session is ended from outside: a dropped connection (SIGHUP), a stop, Ctrl-C or Ctrl-\ before the console is up.
    static let endingSignals = [SIGHUP, SIGTERM, SIGINT, SIGQUIT]

    func validate() throws {
        guard maxSessions > 0, idleTimeout > 0, timeLimit > 0, memory >= 256, cpu > 0 else {
            throw ValidationError("--max-sessions, --idle-timeout, --time-limit and --cpu are positive; --memory is at least 256 MiB")
        }
        guard !theme.contains("/"), !theme.hasSuffix(".toml") else { throw ValidationError("--theme names an installed theme, not a file") }
    }

    func run() async throws {
        if let typed = ProcessInfo.processInfo.environment["SSH_ORIGINAL_COMMAND"], !typed.isEmpty {
            throw CLIError("the demo is the console and nothing else: connect with `ssh -t` and no command")
        }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw CLIError("the demo is a terminal console: connect with `ssh -t`")
        }
        guard let seat = try DemoSeat.take(in: sessions, seats: maxSessions) else {
            throw CLIError("all \(maxSessions) demo seats are taken right now; please come back in a few minutes")
        }
        defer { seat.vacate() }
        try seat.furnish(from: template)

        var terminal = termios()
        let savedTerminal = tcgetattr(STDIN_FILENO, &terminal) == 0
        for signal in Self.endingSignals { Foundation.signal(signal, SIG_IGN) }
        var limits = VisitorLimits()
        (limits.seconds, limits.idleSeconds, limits.memoryMiB, limits.cpuSeconds) = (timeLimit, idleTimeout, memory, cpu)
        let console = try VisitorConsole.start(
            arguments: ["demo", "--db", seat.storePath, "--theme", theme] + limits.arguments, home: seat.folder)
        let watches = Self.endingSignals.map { signal in
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler { console.end() }
            source.resume()
            return source
        }
        // The console ends itself at its time limit; this is for one that cannot.
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeLimit + 30)) { console.end() }
        let status = await console.wait()
        watches.forEach { $0.cancel() }

        let signal = status & 0x7F
        if signal != 0 {
            // Killed mid-frame: give the visitor their terminal back as ncurses would have.
            if savedTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &terminal) }
            FileHandle.standardOutput.write(Data("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l\r\n".utf8))
            switch signal {
            case SIGXCPU: print("The demo used up its CPU allowance.")
            case SIGHUP, SIGTERM, SIGINT, SIGQUIT, SIGKILL: break  // ended from outside: the connection, or the host
            default: print("The demo stopped (signal \(signal)); it may have used up its memory allowance.")
            }
        }
        print("Your iapdesk demo has ended and its store is deleted. Thank you for trying it.")
    }
}
