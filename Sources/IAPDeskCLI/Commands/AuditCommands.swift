import ArgumentParser
import Foundation
import OrderDomain
import OrderStore
import Presentation

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "The append-only, hash-chained audit log (R10), signed with a key kept outside the store.",
        subcommands: [Verify.self, Log.self, Anchor.self, NewKey.self])

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Recompute the chain and, with the audit key, every MAC; check that every grant has its audit entry, \
                and that the log still holds where the witness file saw it end. Exit 1 on the first problem.
                """)
        @OptionGroup var store: StoreOptions
        @Option(help: "Witness file: where the last intact run saw the log end (overrides audit.witness_file). Updated when all is intact.")
        var witness: String?

        func run() async throws {
            let intact = try await store.withStore { store, configuration in
                let witnessPath = witness ?? configuration.auditWitnessFile
                let known = try witnessPath.flatMap(AuditWitnessFile.read)
                var seen: AuditWitness?
                let chain = try await store.audit.verify(witness: known) { seen = $0 }
                let signing = try await store.audit.signing()
                let unaudited = try await store.audit.unauditedDeliveries()
                for line in AuditReport.lines(
                    chain: chain, signing: signing, keyConfigured: configuration.auditKey != nil,
                    witnessPath: witnessPath, witness: known, unaudited: unaudited)
                { print(line) }
                let intact = chain.isIntact && unaudited.isEmpty
                if intact, let witnessPath, let seen { try AuditWitnessFile.write(seen, to: witnessPath) }
                return intact
            }
            if !intact { throw ExitCode(1) }
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Newest entries first.")
        @OptionGroup var store: StoreOptions
        @Option(help: "At most this many rows.") var limit: Int = 50

        func run() async throws {
            let entries = try await store.withStore { store, _ in try await store.audit.entries(limit: limit) }
            print(Output.table(QueueListings.audit(), entries))
        }
    }

    struct Anchor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Admin: start signing this store's log with the configured audit key, or, after reading `audit verify`, \
                sign again the end of a log whose head lost its MAC. Everything before must verify.
                """)
        @OptionGroup var store: StoreOptions
        @Option(help: "Why, for the audit log.") var reason: String

        func run() async throws {
            let outcome = try await store.withStore { store, _ in
                try await store.audit.anchor(reason: reason, by: try await store.operators.actor(forUser: OperatorIdentity.current))
            }
            switch outcome {
            case .alreadySigned(let signing):
                print("the audit log is signed already with audit key \(signing.fingerprint) from entry \(signing.since), up to its head: nothing written")
            case .started(let signing):
                print("the audit log is signed with audit key \(signing.fingerprint) from entry \(signing.since) on")
            case .signedAgain(let headWas):
                print("the head (entry \(headWas)) did not carry the key's MAC; the anchor entry after it signs the log's end again")
            }
        }
    }

    struct NewKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new-key",
            abstract: """
                Write a new random audit key to FILE (owner-only; never overwrites). Keep it where the database's \
                administrators cannot read it, and point audit.key_file or IAPDESK_AUDIT_KEY_FILE at it.
                """)
        @Argument(help: "The key file to create.") var file: String

        func run() throws {
            print("wrote \(try AuditKeyFile.create(file)) to \(Output.safe(file))")
        }
    }
}

/// A new audit key in a new file, owner-only, on disk before anything relies on it.
enum AuditKeyFile {
    static func create(_ file: String) throws -> AuditKey {
        let material = AuditKey.generateMaterial()
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw ValidationError("cannot create \(Output.safe(file)): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        try handle.write(contentsOf: Data((material + "\n").utf8))
        try handle.synchronize()
        return try AuditKey(material: Data(material.utf8))
    }
}

extension AuditVerification {
    var isIntact: Bool { if case .intact = self { true } else { false } }
}

/// What `audit verify` found, a line per thing proved or not.
enum AuditReport {
    static func lines(
        chain: AuditVerification, signing: AuditSigning?, keyConfigured: Bool, witnessPath: String?, witness: AuditWitness?,
        unaudited: [UnauditedDelivery]
    ) -> [String] {
        var lines: [String] = []
        switch chain {
        case .intact(let entries): lines.append("audit log intact: \(entries) entries")
        case .broken(let seq, let why): lines.append("audit log BROKEN at entry \(seq): \(why.words)")
        }
        switch (signing, keyConfigured) {
        case (let signing?, true):
            lines.append("signed with audit key \(signing.fingerprint) from entry \(signing.since): every MAC and the head's checked")
        case (let signing?, false):
            lines.append("signed with audit key \(signing.fingerprint) from entry \(signing.since), MACs NOT checked: no audit key is configured here")
        case (nil, true):
            lines.append("not signed: an audit key is configured but the log was never anchored (`iapdesk audit anchor --reason …`)")
        case (nil, false):
            lines.append("not signed: the chain shows accidental damage, not edits by someone who can write the database (see audit.key_file)")
        }
        if let witness {
            lines.append("witness: entry \(witness.seq), seen intact at \(witness.verifiedAt.iso8601), checked (\(Output.safe(witnessPath)))")
        } else if let witnessPath {
            lines.append("witness: none yet at \(Output.safe(witnessPath)); this run writes one if all is intact")
        } else {
            lines.append("no witness file (audit.witness_file): a log truncated and its head moved back is caught only by the head's MAC")
        }
        if unaudited.isEmpty {
            lines.append("deliveries: every grant has its audit entry")
        } else {
            lines.append("deliveries BROKEN: grants with no audit entry (written outside iapdesk):")
            for grant in unaudited {
                lines.append("  order \(Output.safe(grant.orderId)), granted at \(grant.grantedAt.iso8601)\(grant.count > 1 ? " (\(grant.count) grants)" : "")")
            }
        }
        return lines
    }
}

/// The witness, as a small JSON file the verifier owns, outside the store.
enum AuditWitnessFile {
    static func read(_ path: String) throws -> AuditWitness? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data = Data(try BoundedInput.read(path, limit: 4096))
        do {
            return try JSONDecoder().decode(AuditWitness.self, from: data)
        } catch {
            throw ValidationError("the audit witness file \(Output.safe(path)) is not one iapdesk wrote: \(error)")
        }
    }

    /// Replaced whole (write then rename), so a crash leaves the old witness or the new one.
    static func write(_ witness: AuditWitness, to path: String) throws {
        let data = try JSONEncoder().encode(witness)
        let temporary = path + ".new"
        try data.write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            throw ValidationError("cannot write the audit witness \(Output.safe(path)): \(String(cString: strerror(errno)))")
        }
    }
}
