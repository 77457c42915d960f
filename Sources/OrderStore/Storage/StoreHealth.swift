import Foundation
import OrderDomain

/// Whether the database answered the last call: since when it has not, and why. `serve`'s
/// `/readyz` and the console's banner read it; the connection pool keeps it.
public final class StoreHealth: @unchecked Sendable {
    private let lock = NSLock()
    private var outage: StoreOutage?
    /// A write failed for the database's sake (a read-only or full disk) while reads may
    /// still pass. Only ``OrderStore/checkWritable()`` ends it: a write transaction that
    /// changes nothing commits without touching the disk, so its success proves nothing.
    private var writeOutage: StoreOutage?

    init() {}

    /// Nil while the database answers reads and takes writes.
    public var current: StoreOutage? { lock.withLock { outage ?? writeOutage } }

    /// A call succeeded: the database answers again.
    func succeeded() {
        lock.withLock { outage = nil }
    }

    /// A write reached the disk: the database takes writes again.
    func writesWork() {
        lock.withLock {
            outage = nil
            writeOutage = nil
        }
    }

    /// The error to throw for a failed call: an outage becomes ``StoreError/unavailable(_:)``
    /// and is remembered (from its first failure on); any other error passes unchanged.
    func failed(_ error: any Error, writing: Bool) -> any Error {
        let why: String
        if case StoreError.unavailable(let reason) = error {
            why = reason
        } else if let reason = DatabaseErrorText.outage(error) {
            why = reason
        } else {
            return error
        }
        lock.withLock {
            func remember(_ outage: inout StoreOutage?) {
                if outage == nil { outage = StoreOutage(since: .now(), why: why) } else { outage?.why = why }
            }
            if writing { remember(&writeOutage) } else { remember(&outage) }
        }
        return StoreError.unavailable(why)
    }
}
