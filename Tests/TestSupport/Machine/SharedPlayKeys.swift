import GooglePlaySimulator

/// One set of the Google Play simulator's keys for the whole test process, made once off
/// the concurrency pool: two RSA keys take a while in a debug build, and each made on the
/// pool held one of its two threads from every other test meanwhile.
public enum SharedPlayKeys {
    private static let made = Task { try await OffPool.run { try PlayKeys() } }

    public static func get() async throws -> PlayKeys { try await made.value }
}
