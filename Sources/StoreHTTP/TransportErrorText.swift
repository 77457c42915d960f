import AsyncHTTPClient
import Foundation
import NIOCore

/// Why a call got no answer, in words an operator reads: the same for calls to Apple and
/// webhooks to the game. No URL, header or secret is ever part of it.
public enum TransportErrorText {
    public static func describe(_ error: any Error, timeout: Duration, peer: String) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded: return "timed out after \(timeout.formatted(.units(allowed: [.seconds])))"
            case .connectTimeout: return "connection timed out"
            case .remoteConnectionClosed: return "\(peer) closed the connection"
            case .bodyLengthMismatch: return "the answer ended before its declared length"
            default: break
            }
        }
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED { return "connection refused" }
        let text = String(describing: error)
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
