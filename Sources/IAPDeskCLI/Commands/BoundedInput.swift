import Foundation

/// Reads a file or standard input, but never more than `limit` bytes: `cat /dev/zero |
/// iapdesk receipt decode -` is refused after the limit instead of filling the memory.
enum BoundedInput {
    /// `path` "-" is standard input. Errors name the input, the limit, and nothing it held.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let name = path == "-" ? "standard input" : Output.safe(path)
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: path) else { throw CLIError("cannot read \(name)") }
            handle = opened
        }
        defer { if path != "-" { try? handle.close() } }
        var bytes: [UInt8] = []
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 16)
            } catch {
                throw CLIError("cannot read \(name): \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { return bytes }
            bytes += chunk
            if bytes.count > limit { throw CLIError("\(name) is over \(limit / (1 << 20)) MB, the limit for a receipt; nothing was decoded") }
        }
    }
}
