import Foundation

/// Whether the database answered the last call: since when it has not, and why. `serve`'s
/// `/readyz` and the console's banner read it; the pool keeps it (``ConnectionPool``).
public final class StoreHealth: @unchecked Sendable {
    /// The store has not been reached since `since`; `why` is the database's own words.
    public struct Outage: Sendable, Equatable {
        public var since: Millis
        public var why: String
    }

    private let lock = NSLock()
    private var outage: Outage?

    init() {}

    /// Nil while the database answers.
    public var current: Outage? { lock.withLock { outage } }

    /// A call succeeded: the database is back.
    func succeeded() {
        lock.withLock { outage = nil }
    }

    /// The error to throw for a failed call: an outage becomes ``StoreError/unavailable(_:)``
    /// and is remembered (from its first failure on); any other error passes unchanged.
    func failed(_ error: any Error) -> any Error {
        let why: String
        if case StoreError.unavailable(let reason) = error {
            why = reason
        } else if let reason = DatabaseErrorText.outage(error) {
            why = reason
        } else {
            return error
        }
        lock.withLock {
            if outage == nil { outage = Outage(since: .now(), why: why) } else { outage?.why = why }
        }
        return StoreError.unavailable(why)
    }
}
