/// A secret (the shared secret, the `.p8` key). Its description never shows the value,
/// so printing a configuration, logging it or auditing it cannot leak it.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String
    /// Where it came from ("env IAPDESK_SHARED_SECRET", "file /etc/…"), safe to show.
    public let origin: String

    public init(value: String, origin: String) {
        self.value = value
        self.origin = origin
    }

    public var description: String { "<secret from \(origin)>" }
    public var debugDescription: String { description }
}
