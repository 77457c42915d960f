import Foundation

/// An HTTP/1.1 request sent in parts over a plain socket, as a slow client sends it: the
/// server is at work on it from its head until its last byte and its answer.
public final class SlowRequest {
    private let fd: Int32

    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Connects to 127.0.0.1:`port` and sends the request's head (ending in its blank line).
    public init(port: Int, head: String) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard LoopbackPort.connect(fd, to: port) else {
            close(fd)
            throw Failed(description: "nothing accepts on 127.0.0.1:\(port)")
        }
        // Never blocking: a test's tasks share the cooperative threads with the server it
        // talks to (in process), and a thread blocked in `recv` starves both.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        try send(head)
    }

    deinit { close(fd) }

    /// Sends more of the request.
    public func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failed(description: "sending failed: errno \(errno)") }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// The answer's status code, read from its first line, waited for up to `seconds`.
    public func status(seconds: Double = 30) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.last != UInt8(ascii: "\n") {
            let read = recv(fd, &byte, 1, 0)
            if read == 1 {
                line.append(byte)
            } else if read < 0, errno == EAGAIN || errno == EWOULDBLOCK, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            } else {
                throw Failed(description: read == 0 ? "the server closed the connection without an answer" : "no answer (errno \(errno))")
            }
        }
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard words.count >= 2, let code = Int(words[1]) else { throw Failed(description: "not an HTTP status line: \(line)") }
        return code
    }
}
