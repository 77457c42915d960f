import Foundation
import NIOConcurrencyHelpers

/// Every child process the tests start is launched here, one at a time: Foundation's
/// `Process.run()` on Linux crashed (in `memmove`, inside `run`) while another thread was
/// launching a process at the same moment.
public enum ProcessLaunch {
    private static let lock = NIOLock()

    public static func run(_ process: Process) throws {
        try lock.withLock { try process.run() }
    }
}
