/// The parts of a PKCS#7 / CMS SignedData (RFC 5652) that receipt checking needs,
/// read with `BERReader` so that Xcode's indefinite-length BER parses too.
///
/// ContentInfo ::= SEQUENCE { contentType OID, [0] EXPLICIT SignedData }
/// SignedData  ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo SEQUENCE
///                 { eContentType, [0] EXPLICIT OCTET STRING }, [0] certificates, [1] crls,
///                 signerInfos SET }
public struct SignedData: Sendable {
    /// The signed content: for an app receipt, the receipt payload.
    public let content: [UInt8]
    /// DER of each embedded certificate, in the order they appear.
    public let certificates: [[UInt8]]
    public let signers: [SignerInfo]

    public struct SignerInfo: Sendable {
        /// DER of the issuer Name and the serial INTEGER's content (issuerAndSerialNumber).
        public let issuer: [UInt8]
        public let serialNumber: [UInt8]
        public let digestAlgorithm: String
        public let signatureAlgorithm: String
        /// DER of the signed attributes re-tagged as a SET (what the signature covers), if any.
        public let signedAttributes: [UInt8]?
        /// The messageDigest signed attribute, if any.
        public let messageDigest: [UInt8]?
        public let signature: [UInt8]
    }

    static let signedDataOID = "1.2.840.113549.1.7.2"
    static let messageDigestOID = "1.2.840.113549.1.9.4"

    public init(_ bytes: [UInt8]) throws(ReceiptError) {
        do {
            try self.init(reader: BERReader(bytes))
        } catch let error as ReceiptError {
            throw error
        } catch {
            throw .malformed("PKCS#7: \(error)")
        }
    }

    private init(reader r: BERReader) throws {
        let contentInfo = try r.root()
        try r.expect(contentInfo, .sequence, "a PKCS#7 ContentInfo SEQUENCE")
        let info = try r.children(of: contentInfo)
        guard info.count >= 2, try r.oid(info[0]) == Self.signedDataOID else {
            throw ReceiptError.malformed("PKCS#7: not a SignedData container")
        }
        try r.expect(info[1], .context(0), "[0] SignedData")
        let wrapped = try r.children(of: info[1], depth: 2)
        guard let signedData = wrapped.first else { throw ReceiptError.malformed("PKCS#7: empty SignedData") }
        try r.expect(signedData, .sequence, "a SignedData SEQUENCE")
        let parts = try r.children(of: signedData, depth: 3)
        guard parts.count >= 4 else { throw ReceiptError.malformed("PKCS#7: SignedData has \(parts.count) parts, expected at least 4") }

        // encapContentInfo: the payload, possibly a constructed OCTET STRING in BER.
        try r.expect(parts[2], .sequence, "encapContentInfo")
        let encapsulated = try r.children(of: parts[2], depth: 4)
        guard encapsulated.count == 2 else { throw ReceiptError.malformed("PKCS#7: no encapsulated content (detached signature)") }
        try r.expect(encapsulated[1], .context(0), "[0] eContent")
        guard let octetString = try r.children(of: encapsulated[1], depth: 5).first,
            octetString.tag.number == 4, octetString.tag.cls == 0
        else { throw ReceiptError.malformed("PKCS#7: eContent is not an OCTET STRING") }
        content = Array(try r.octets(octetString, depth: 6))

        var certificates: [[UInt8]] = []
        var signerSet: BERElement?
        for part in parts.dropFirst(3) {
            if part.tag == .context(0) {
                for certificate in try r.children(of: part, depth: 4) {
                    certificates.append(Array(r.bytes[certificate.encoded]))
                }
            } else if part.tag == .set {
                signerSet = part
            }
        }
        guard let signerSet else { throw ReceiptError.malformed("PKCS#7: no signerInfos") }
        self.certificates = certificates
        signers = try r.children(of: signerSet, depth: 4).map { try Self.signerInfo($0, reader: r) }
    }

    private static func signerInfo(_ element: BERElement, reader r: BERReader) throws -> SignerInfo {
        try r.expect(element, .sequence, "a SignerInfo SEQUENCE")
        let fields = try r.children(of: element, depth: 5)
        guard fields.count >= 5 else { throw ReceiptError.malformed("PKCS#7: SignerInfo has \(fields.count) fields") }
        try r.expect(fields[1], .sequence, "issuerAndSerialNumber (subjectKeyIdentifier signers are not used by Apple)")
        let sid = try r.children(of: fields[1], depth: 6)
        guard sid.count == 2, sid[1].tag == .integer else { throw ReceiptError.malformed("PKCS#7: malformed issuerAndSerialNumber") }
        let digestAlgorithm = try algorithm(fields[2], reader: r)

        var index = 3
        var signedAttributes: [UInt8]?
        var messageDigest: [UInt8]?
        if fields[index].tag == .context(0) {
            let attributes = fields[index]
            guard !attributes.isIndefinite else { throw ReceiptError.malformed("PKCS#7: signed attributes are not DER") }
            var der = Array(r.bytes[attributes.encoded])
            der[0] = 0x31  // The signature covers the attributes encoded as a SET, not as [0].
            signedAttributes = der
            for attribute in try r.children(of: attributes, depth: 6) {
                let pair = try r.children(of: attribute, depth: 7)
                if pair.count == 2, try r.oid(pair[0]) == messageDigestOID,
                    let value = try r.children(of: pair[1], depth: 8).first
                {
                    messageDigest = Array(r.bytes[value.content])
                }
            }
            index += 1
        }
        guard fields.count > index + 1 else { throw ReceiptError.malformed("PKCS#7: SignerInfo lacks its signature") }
        let signatureAlgorithm = try algorithm(fields[index], reader: r)
        let signature = fields[index + 1]
        try r.expect(signature, .octetString, "the signature OCTET STRING")
        return SignerInfo(
            issuer: Array(r.bytes[sid[0].encoded]), serialNumber: Array(r.bytes[sid[1].content]),
            digestAlgorithm: digestAlgorithm, signatureAlgorithm: signatureAlgorithm,
            signedAttributes: signedAttributes, messageDigest: messageDigest, signature: Array(r.bytes[signature.content])
        )
    }

    private static func algorithm(_ element: BERElement, reader r: BERReader) throws -> String {
        try r.expect(element, .sequence, "an AlgorithmIdentifier")
        guard let oid = try r.children(of: element, depth: 6).first else {
            throw ReceiptError.malformed("PKCS#7: empty AlgorithmIdentifier")
        }
        return try r.oid(oid)
    }
}
