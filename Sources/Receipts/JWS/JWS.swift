import Crypto
import Foundation
import X509

/// A compact JWS as Apple signs them (transactions, renewal info, app transactions,
/// server notifications): ES256 with the signer's chain in the `x5c` header.
public struct JWS: Sendable {
    public struct Header: Sendable, Decodable {
        public var alg: String?
        public var kid: String?
        public var x5c: [String]?
    }

    public let header: Header
    /// The header's `x5c`, parsed (``KnownHeaders``).
    let certificates: Certificates
    /// The payload's JSON bytes.
    public let payload: [UInt8]
    let signingInput: [UInt8]
    let signature: [UInt8]
    /// When, for which app and environment, read once with the payload's shape.
    let envelope: Envelope

    /// Splits and decodes a compact JWS. Only the shape is checked here; `verify` checks trust.
    public init(compact: String) throws(ReceiptError) {
        var text = String(compact.trimmedOfWhitespace)
        // Split and decoded over the UTF-8 bytes in place: splitting the String's UTF-8 view
        // and copying each part into a String of its own was a quarter of a notification's
        // decoding (and a split by Character, before, walked grapheme breaks over every byte).
        typealias Decoded = Result<[UInt8], ReceiptError>
        typealias Parts = (header: Result<KnownHeaders.Entry, ReceiptError>, payload: Decoded, signature: Decoded, signingInput: [UInt8])
        let parts = text.withUTF8 { bytes -> Result<Parts, ReceiptError> in
            var dots: [Int] = []
            for index in bytes.indices where bytes[index] == UInt8(ascii: ".") { dots.append(index) }
            guard dots.count == 2 else { return .failure(.malformed("JWS: expected 3 dot-separated parts, found \(dots.count + 1)")) }
            func part(_ range: Range<Int>, _ what: String) -> Decoded {
                Result { () throws(ReceiptError) in try Base64.decodeURL(UnsafeBufferPointer(rebasing: bytes[range]), what: what) }
            }
            // A header met before is not decoded again (`KnownHeaders`).
            let headerText = UnsafeBufferPointer(rebasing: bytes[0..<dots[0]])
            let header = KnownHeaders.shared.entry(headerText).map { .success($0) } ?? Self.decodeHeader(part(0..<dots[0], "JWS header"), text: headerText)
            return .success(
                (
                    header, part(dots[0] + 1..<dots[1], "JWS payload"), part(dots[1] + 1..<bytes.count, "JWS signature"),
                    Array(UnsafeBufferPointer(rebasing: bytes[0..<dots[1]]))
                ))
        }
        let split = try parts.get()
        let known = try split.header.get()
        header = known.header
        certificates = known.certificates
        payload = try split.payload.get()
        // One parse checks the shape and reads the envelope; an object whose envelope
        // fields are of other types (not Apple's) has an empty envelope, as before.
        let payloadData = Data(payload)
        if let envelope = try? JSONDecoder().decode(Envelope.self, from: payloadData) {
            self.envelope = envelope
        } else if (try? JSONDecoder().decode(AnyJSONObject.self, from: payloadData)) != nil {
            envelope = Envelope()
        } else {
            throw .malformed("JWS payload is not a JSON object")
        }
        signature = try split.signature.get()
        signingInput = split.signingInput
    }

    /// A header not met before: decoded, its certificates parsed, and remembered by its text.
    private static func decodeHeader(_ bytes: Result<[UInt8], ReceiptError>, text: UnsafeBufferPointer<UInt8>) -> Result<KnownHeaders.Entry, ReceiptError> {
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(try bytes.get()))
        } catch let error as ReceiptError {
            return .failure(error)
        } catch {
            return .failure(.malformed("JWS header is not JSON"))
        }
        let entry = KnownHeaders.Entry(header: header, certificates: Certificates(x5c: header.x5c))
        KnownHeaders.shared.remember(text, entry)
        return .success(entry)
    }

    /// The payload decoded as `T`.
    public func decodePayload<T: Decodable>(_ type: T.Type) throws(ReceiptError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(payload))
        } catch {
            throw .malformed("JWS payload does not match \(T.self): \(JSONErrors.describe(error))")
        }
    }

    /// What every Apple payload carries: when it was signed, for which app and environment.
    struct Envelope: Decodable, Sendable {
        var signedDate: AppleDate?
        var bundleId: String?
        var environment: String?
        var data: Inner?
        var summary: Inner?
        var appData: Inner?
        struct Inner: Decodable, Sendable {
            var bundleId: String?
            var environment: String?
        }
        var effectiveBundleId: String? { bundleId ?? data?.bundleId ?? summary?.bundleId ?? appData?.bundleId }
        var effectiveEnvironment: String? { environment ?? data?.environment ?? summary?.environment ?? appData?.environment }
    }

    /// The instant the chain is checked at: the payload's `signedDate` (Apple's library does
    /// the same when online checks are off), else now.
    public func validationTime(now: Date = Date()) -> Date { envelope.signedDate?.date ?? now }

    /// Checks the ES256 signature and the x5c chain to the configured roots.
    public func verify(trust: TrustRoots, now: Date = Date()) async -> SignatureVerdict {
        let time = validationTime(now: now)
        guard header.alg == "ES256" else {
            return .unverified("algorithm \(header.alg ?? "none") is not ES256", at: time)
        }
        let certificates: [Certificate]
        let leafKey: P256.Signing.PublicKey?
        switch self.certificates {
        case .absent: return .unverified("the header has no x5c certificate chain", at: time)
        case .unparsable(let index): return .unverified("x5c certificate \(index + 1) does not parse", at: time)
        case .parsed(let parsed, let key): (certificates, leafKey) = (parsed, key)
        }
        let leaf = certificates[0]
        guard let key = leafKey,
            let rawSignature = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(rawSignature, for: signingInput)
        else {
            return .unverified("the ES256 signature does not match the leaf certificate: altered or forged", chain: certificates, digest: "SHA-256", at: time)
        }
        let outcome: ChainCheck.Outcome
        if certificates.count == 1 && leaf.subject == leaf.issuer {
            // StoreKit testing in Xcode signs with one self-signed certificate.
            outcome = ChainCheck.checkPinned(signer: leaf, pinned: trust.xcode, at: time)
        } else if certificates.count != 3 {
            // Apple's library refuses any other length before it looks further (INVALID_CHAIN_LENGTH).
            outcome = .untrusted("x5c has \(certificates.count) certificates; Apple's is leaf, intermediate, root")
        } else {
            outcome = await ChainCheck.check(
                leaf: leaf, intermediates: Array(certificates.dropFirst()), anchors: trust.apple, at: time)
        }
        switch outcome {
        case .trusted(let chain):
            return SignatureVerdict(status: .verified, chain: chain, digest: "SHA-256", validationTime: time)
        case .untrusted(let reason):
            return .unverified(reason, chain: certificates, digest: "SHA-256", at: time)
        }
    }

    /// Strict use for data iapdesk acts on: the payload only if the signature, the chain and
    /// the bundle id all check out; otherwise an error that says which failed.
    public func verified<T: Decodable>(
        as type: T.Type, trust: TrustRoots, bundleId: String?, now: Date = Date()
    ) async throws(ReceiptError) -> T {
        try await check(trust: trust, bundleId: bundleId, now: now)
        return try decodePayload(type)
    }

    /// The checks of ``verified(as:trust:bundleId:now:)`` alone, for a caller that has
    /// decoded the payload already: throws the error that says which failed.
    public func check(trust: TrustRoots, bundleId: String?, now: Date = Date()) async throws(ReceiptError) {
        let verdict = await verify(trust: trust, now: now)
        if let reason = verdict.reason { throw .jwsRejected(reason) }
        if let bundleId, let actual = envelope.effectiveBundleId, actual != bundleId {
            throw .jwsRejected("bundle id \(actual) does not match the configured \(bundleId)")
        }
    }
}

/// Any JSON object, read for its shape alone: the decoder checks the whole document's syntax
/// without building it (Foundation's JSONSerialization, which did, was a notification's
/// costliest step after its signature).
private struct AnyJSONObject: Decodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: Key.self) }
}
