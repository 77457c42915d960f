import Foundation

/// Slow work (re-verification) off the key loop: the screen keeps drawing and Esc keeps
/// working while it runs. The loop reads progress and the result under a lock.
public final class BackgroundJob: @unchecked Sendable {
    public let title: String
    private let lock = NSLock()
    private var progressValue: (done: Int, total: Int)?
    private var resultValue: (text: String, isError: Bool)?
    private var stopRequested = false
    private var task: Task<Void, Never>?
    private let work: @Sendable (BackgroundJob) async -> (text: String, isError: Bool)

    /// `work` runs once the console starts the job; what it returns becomes the message.
    public init(title: String, work: @escaping @Sendable (BackgroundJob) async -> (text: String, isError: Bool)) {
        self.title = title
        self.work = work
    }

    /// Called by the console when it takes the job on (one at a time).
    func start() {
        task = Task { [self] in
            let result = await work(self)
            lock.withLock { resultValue = result }
        }
    }

    public func report(done: Int, total: Int) { lock.withLock { progressValue = (done, total) } }
    public var progress: (done: Int, total: Int)? { lock.withLock { progressValue } }
    public var result: (text: String, isError: Bool)? { lock.withLock { resultValue } }
    /// Asks the work to start nothing new. It is never cancelled outright: a call to Apple
    /// or a store write cut off half-way is exactly what must not happen.
    public func stop() { lock.withLock { stopRequested = true } }
    public var isStopping: Bool { lock.withLock { stopRequested } }
    /// Waits for the work to end (tests; the console itself never waits).
    public func wait() async { await task?.value }

    /// The message bar while it runs: a spinner, or a progress bar for bulk work; nil once done.
    func statusLine(spinner: Int) -> (text: String, isError: Bool)? {
        guard result == nil else { return nil }
        let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        let spin = frames[spinner % frames.count]
        guard let (done, total) = progress, total > 0 else { return ("\(spin) \(title)…", false) }
        let width = 20, filled = done * width / total
        return (
            "\(spin) \(title) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(done)/\(total) · Esc cancels", false
        )
    }
}
