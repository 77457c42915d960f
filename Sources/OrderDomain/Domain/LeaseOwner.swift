import Foundation

/// Who holds a lease or a verification claim, as another process reads it in an error or a
/// job listing: the host, the process and a random tag for this holder (two workers in one
/// process are two holders).
public enum LeaseOwner {
    public static func new() -> String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8))"
    }
}
