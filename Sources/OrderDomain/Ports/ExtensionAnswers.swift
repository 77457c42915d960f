/// What Apple said to an extension: the new end, or its refusal in words.
public struct ExtensionAnswer: Sendable {
    public var newExpiry: Millis?
    public var refusal: String?

    public init(newExpiry: Millis?, refusal: String?) {
        self.newExpiry = newExpiry
        self.refusal = refusal
    }
}

/// Where Apple says an extension for all subscribers stands, or why it could not say.
public struct MassExtensionProgress: Sendable, Equatable {
    public var completeAt: Millis?
    public var succeeded: Int64?
    public var failed: Int64?
    public var refusal: String?

    public init(completeAt: Millis?, succeeded: Int64?, failed: Int64?, refusal: String?) {
        self.completeAt = completeAt
        self.succeeded = succeeded
        self.failed = failed
        self.refusal = refusal
    }
}
