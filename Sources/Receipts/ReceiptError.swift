/// Why a piece of Apple data could not be decoded. Every message names what was wrong
/// and where, so an operator can tell a truncated paste from a forged receipt.
public enum ReceiptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not the structure they claim to be.
    case malformed(String)
    /// The input is not any kind of Apple data iapdesk knows.
    case unrecognized(String)
    /// A JWS failed verification (bad signature, missing x5c, wrong bundle id, untrusted chain).
    case jwsRejected(String)

    public var description: String {
        switch self {
        case .malformed(let why): "malformed: \(why)"
        case .unrecognized(let why): "not Apple receipt data: \(why)"
        case .jwsRejected(let why): "JWS rejected: \(why)"
        }
    }
}
