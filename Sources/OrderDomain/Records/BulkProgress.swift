/// Progress of a bulk re-verification, reported after each order.
public struct BulkProgress: Sendable {
    public var done: Int
    public var total: Int
    /// Orders that reached `delivered` on this run.
    public var delivered: Int
    /// Orders still waiting on Apple (`verify_retry`).
    public var retrying: Int
    /// Orders another process was verifying at that moment: left to it, not asked twice.
    public var elsewhere = 0
    public var failed: [(orderId: String, error: any Error)]

    package init(done: Int, total: Int, delivered: Int, retrying: Int, failed: [(orderId: String, error: any Error)]) {
        self.done = done
        self.total = total
        self.delivered = delivered
        self.retrying = retrying
        self.failed = failed
    }
}
