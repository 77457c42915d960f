import Crypto
import Foundation
import Hummingbird

/// The game servers allowed to call the intake API, each with its own bearer token. Tokens
/// come from a file (one `name token` per line, `#` comments) or the environment, never
/// the TOML. Only their SHA-256 digests are kept, and a presented token is compared by
/// digest, so neither the comparison's timing nor a memory dump gives a token away.
public struct ClientTokens: Sendable {
    private let digests: [(name: String, digest: SHA256.Digest)]

    public init(_ pairs: [(name: String, token: String)]) {
        digests = pairs.map { ($0.name, SHA256.hash(data: Data($0.token.utf8))) }
    }

    /// Parses `name token` lines. Errors name the line, never its token.
    public init(file text: String, origin: String) throws {
        var pairs: [(String, String)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 2, fields[1].count >= 16 else {
                throw ServeError.configuration("\(origin) line \(index + 1): expected `name token`, the token at least 16 characters")
            }
            pairs.append((String(fields[0]), String(fields[1])))
        }
        guard !pairs.isEmpty else { throw ServeError.configuration("\(origin) holds no client token") }
        self.init(pairs)
    }

    public var isEmpty: Bool { digests.isEmpty }

    /// The client an `Authorization: Bearer …` header names, or nil.
    func client(authorization: String?) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return nil }
        let presented = SHA256.hash(data: Data(authorization.dropFirst(7).utf8))
        return digests.first { $0.digest == presented }?.name
    }
}

/// Errors starting or configuring `serve`; they name settings, never secret values.
public enum ServeError: Error, CustomStringConvertible {
    case configuration(String)
    case notStarted(String)

    public var description: String {
        switch self {
        case .configuration(let why): "serve: \(why)"
        case .notStarted(let why): "serve could not start: \(why)"
        }
    }
}
