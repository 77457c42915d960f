import Crypto
import Foundation
import _CryptoExtras

/// A JSON Web Token signed with RS256 (RSASSA-PKCS1-v1_5 over SHA-256), as Google signs the
/// push tokens of Cloud Pub/Sub and a service account signs its OAuth assertion: its header,
/// its claims as sent, and whether an RSA key made its signature.
public struct WebToken: Sendable {
    public struct Header: Codable, Sendable, Equatable {
        public var alg: String
        public var typ: String?
        /// The id of the key that signed it, to find among the signer's published keys.
        public var kid: String?
    }

    public let header: Header
    /// The claims' JSON, as signed.
    public let payload: Data
    let signingInput: Data
    let signature: Data

    /// Reads the three parts of `compact` without trusting them.
    public init(compact: String) throws(WebTokenError) {
        // Split on the bytes, not on Characters (grapheme breaks over every byte of the token).
        let parts = compact.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map { Substring($0) }
        guard parts.count == 3, let headerBytes = Base64URL.decode(String(parts[0])), let payload = Base64URL.decode(String(parts[1])),
            let signature = Base64URL.decode(String(parts[2]))
        else { throw .malformed("not three base64url parts") }
        do { header = try JSONDecoder().decode(Header.self, from: headerBytes) } catch { throw .malformed("its header is not JSON") }
        self.payload = payload
        self.signature = signature
        signingInput = Data("\(parts[0]).\(parts[1])".utf8)
    }

    /// Whether `key` made the signature with RS256; any other algorithm is refused.
    public func isSigned(by key: _RSA.Signing.PublicKey) -> Bool {
        guard header.alg == "RS256" else { return false }
        return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInput, padding: .insecurePKCS1v1_5)
    }

    /// The claims, decoded as `type`.
    public func claims<T: Decodable>(as type: T.Type) throws(WebTokenError) -> T {
        do { return try JSONDecoder().decode(type, from: payload) } catch { throw .malformed("its claims are not what was expected: \(error)") }
    }

    /// `claims` signed with `key` as RS256, the header naming `keyId`.
    public static func sign<Claims: Encodable>(_ claims: Claims, with key: _RSA.Signing.PrivateKey, keyId: String?) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = Base64URL.encode(try encoder.encode(Header(alg: "RS256", typ: "JWT", kid: keyId)))
        let body = Base64URL.encode(try encoder.encode(claims))
        let signature = try key.signature(for: Data("\(header).\(body)".utf8), padding: .insecurePKCS1v1_5)
        return "\(header).\(body).\(Base64URL.encode(signature.rawRepresentation))"
    }
}

public enum WebTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let why): "not a JSON Web Token: \(why)"
        }
    }
}

/// Base64 with the URL alphabet and no padding (RFC 4648 §5), as JSON Web Tokens use it.
/// The alphabets differ in two symbols, swapped byte by byte: Foundation's string
/// replacement goes through UTF-16 on Linux.
public enum Base64URL {
    public static func encode(_ data: Data) -> String {
        let bytes = data.base64EncodedString().utf8.compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func decode(_ text: String) -> Data? {
        var bytes = text.utf8.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "-"): UInt8(ascii: "+")
            case UInt8(ascii: "_"): UInt8(ascii: "/")
            default: byte
            }
        }
        bytes += repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4)
        return Data(base64Encoded: Data(bytes))
    }
}
