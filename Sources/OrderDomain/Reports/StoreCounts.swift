/// What the console header shows on every frame; cheap by construction: counters kept
/// by the write path, and two index probes.
public struct StoreCounts: Sendable, Equatable {
    public var byState: [OrderState: Int64]
    public var total: Int64 { byState.values.reduce(0, +) }
    /// Orders stuck past the threshold, counted up to ``cap``.
    public var stuck: Int64
    /// Age of the oldest stuck order, if any.
    public var oldestStuckAge: Millis?
    /// R2: orders Apple answered from sandbox in a production store (App Review, testers),
    /// kept apart so finance can reconcile; counted up to ``cap``.
    public var sandboxInProduction: Int64 = 0
    /// Events the game has not confirmed ("granted, game not told"), counted up
    /// to ``cap`` like the others.
    public var gameNotTold: Int64 = 0
    /// Apple's refund requests still waiting for an answer, counted up to
    /// ``cap``, and how long Apple still waits for the soonest of them.
    public var openRefundRequests: Int64 = 0
    public var nextRefundDueIn: Millis?
    /// On a hot standby (``OrderStore/isReplica``): how far behind the primary what it shows
    /// is (0 when it has replayed all it received); nil elsewhere.
    public var replicationLag: Millis? = nil

    /// Counts that grow with the store stop here and show as "1000+": each is then a
    /// bounded index range, whatever the store's size (at ten million orders, counting
    /// 19,000 stuck orders took 6–12 ms on PostgreSQL; a thousand is well past the point
    /// where on-call needs the exact number).
    public static let cap: Int64 = 1_000

    package init(
        byState: [OrderState: Int64], stuck: Int64, oldestStuckAge: Millis? = nil, sandboxInProduction: Int64 = 0, gameNotTold: Int64 = 0,
        openRefundRequests: Int64 = 0, nextRefundDueIn: Millis? = nil, replicationLag: Millis? = nil
    ) {
        self.byState = byState
        self.stuck = stuck
        self.oldestStuckAge = oldestStuckAge
        self.sandboxInProduction = sandboxInProduction
        self.gameNotTold = gameNotTold
        self.openRefundRequests = openRefundRequests
        self.nextRefundDueIn = nextRefundDueIn
        self.replicationLag = replicationLag
    }
}
