import Foundation

/// A readable decoding of any Apple data: what `iapdesk receipt decode` prints and the
/// console's receipt screen draws. Values are plain strings from the data; whoever
/// displays them must sanitize them (they may hold anything a client sent).
public struct ReceiptDocument: Sendable, Encodable, Equatable {
    public var kind: String
    public var signatures: [Signature]
    public var sections: [Section]

    public struct Signature: Sendable, Encodable, Equatable {
        /// What was signed: `receipt`, or where a JWS sat (`signedPayload`, `data.signedTransactionInfo`).
        public var subject: String
        public var verified: Bool
        public var summary: String
        public var reason: String?
        /// Common names, anchor first.
        public var chain: [String]
        public var digest: String?
        public var validationTime: Date?

        init(subject: String, verdict: SignatureVerdict) {
            self.subject = subject
            verified = verdict.isVerified
            summary = verdict.summary
            reason = verdict.reason
            chain = verdict.chain.reversed().map(\.commonName)
            digest = verdict.digest
            validationTime = verdict.validationTime
        }
    }

    public struct Section: Sendable, Encodable, Equatable {
        public var title: String
        public var fields: [Field]
        public var table: Table?

        public init(title: String, fields: [Field] = [], table: Table? = nil) {
            self.title = title
            self.fields = fields
            self.table = table
        }
    }

    public struct Field: Sendable, Encodable, Equatable {
        public var name: String
        public var value: String
    }

    public struct Table: Sendable, Encodable, Equatable {
        public var columns: [String]
        public var rows: [[String]]
    }
}

extension [ReceiptDocument.Field] {
    /// Appends `name: value` when there is a value.
    mutating func add(_ name: String, _ value: String?) {
        if let value { append(.init(name: name, value: value)) }
    }
    mutating func add(_ name: String, _ value: Date?) {
        add(name, value.map(RFC3339.format))
    }
    mutating func add<N: BinaryInteger>(_ name: String, _ value: N?) {
        add(name, value.map { String($0) })
    }
    mutating func add(_ name: String, _ value: Bool?) {
        add(name, value.map { $0 ? "yes" : "no" })
    }
}
