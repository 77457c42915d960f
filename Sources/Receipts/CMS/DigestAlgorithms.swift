import Crypto
import X509

/// Maps CMS algorithm identifiers to the signature algorithms swift-certificates checks.
enum DigestAlgorithms {
    static func name(_ oid: String) -> String? {
        switch oid {
        case "1.3.14.3.2.26": "SHA-1"
        case "2.16.840.1.101.3.4.2.1": "SHA-256"
        case "2.16.840.1.101.3.4.2.2": "SHA-384"
        case "2.16.840.1.101.3.4.2.3": "SHA-512"
        default: nil
        }
    }

    static func hash(_ bytes: [UInt8], digest: String) -> [UInt8]? {
        switch digest {
        case "SHA-1": Array(Insecure.SHA1.hash(data: bytes))
        case "SHA-256": Array(SHA256.hash(data: bytes))
        case "SHA-384": Array(SHA384.hash(data: bytes))
        case "SHA-512": Array(SHA512.hash(data: bytes))
        default: nil
        }
    }

    /// CMS names the key algorithm (`rsaEncryption`) or the combination; either way the
    /// digest algorithm of the SignerInfo decides the hash.
    static func signatureAlgorithm(signature oid: String, digest: String) -> Certificate.SignatureAlgorithm? {
        let rsa = ["1.2.840.113549.1.1.1", "1.2.840.113549.1.1.5", "1.2.840.113549.1.1.11", "1.2.840.113549.1.1.12", "1.2.840.113549.1.1.13"]
        let ecdsa = ["1.2.840.10045.2.1", "1.2.840.10045.4.3.2", "1.2.840.10045.4.3.3", "1.2.840.10045.4.3.4"]
        if rsa.contains(oid) {
            switch digest {
            case "SHA-1": return .sha1WithRSAEncryption
            case "SHA-256": return .sha256WithRSAEncryption
            case "SHA-384": return .sha384WithRSAEncryption
            case "SHA-512": return .sha512WithRSAEncryption
            default: return nil
            }
        }
        if ecdsa.contains(oid) {
            switch digest {
            case "SHA-256": return .ecdsaWithSHA256
            case "SHA-384": return .ecdsaWithSHA384
            case "SHA-512": return .ecdsaWithSHA512
            default: return nil
            }
        }
        return nil
    }
}
