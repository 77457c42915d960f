import Foundation

/// Waits for something another process or task does on its own (a worker's next commit, a
/// game's answer): true as soon as `condition` holds, false if it still does not after
/// `seconds`. Polls every 50 ms.
public func eventually(within seconds: Double = 15, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
