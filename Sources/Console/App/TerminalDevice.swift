import Terminal

/// Where the console draws and reads keys: the real terminal, or `MemoryTerminal` in tests.
public protocol TerminalDevice: AnyObject {
    var size: (rows: Int, cols: Int) { get }
    var depth: ColorDepth { get }
    func present(_ screen: ScreenBuffer)
    /// The next key if one is waiting, without blocking.
    func pollKey() -> Key?
    /// Returns when a key may be waiting, or after `timeout` at the latest.
    func waitForInput(upTo timeout: Duration) async
    func invalidate()
}

extension NcursesTerminal: TerminalDevice {
    public func pollKey() -> Key? { readKey(timeoutMilliseconds: 0) }
    public func waitForInput(upTo timeout: Duration) async {
        let (seconds, attoseconds) = timeout.components
        await waitForInput(upToMilliseconds: Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}

/// A terminal in memory: keys are queued by the test, frames are kept for it to read.
public final class MemoryTerminal: TerminalDevice {
    public var size: (rows: Int, cols: Int)
    public let depth: ColorDepth
    public private(set) var frames: [ScreenBuffer] = []
    private var keys: [Key] = []

    public init(rows: Int = 24, cols: Int = 80, depth: ColorDepth = .full) {
        size = (rows, cols)
        self.depth = depth
    }

    public var lastFrame: ScreenBuffer? { frames.last }

    public func type(_ keys: Key...) { self.keys += keys }
    public func type(_ text: String) { keys += text.map { .character($0) } }

    public func resize(rows: Int, cols: Int) {
        size = (rows, cols)
        keys.append(.resize)
    }

    public func present(_ screen: ScreenBuffer) { frames.append(screen) }
    public func pollKey() -> Key? { keys.isEmpty ? nil : keys.removeFirst() }
    public func waitForInput(upTo timeout: Duration) async {
        if keys.isEmpty { try? await Task.sleep(for: min(timeout, .milliseconds(4))) }
    }
    public func invalidate() {}
}
