/// The store has not been reached since `since`; `why` is the database's own words.
/// `serve`'s `/readyz` and the console's banner say it.
public struct StoreOutage: Sendable, Equatable {
    public var since: Millis
    public var why: String

    package init(since: Millis, why: String) {
        self.since = since
        self.why = why
    }
}
