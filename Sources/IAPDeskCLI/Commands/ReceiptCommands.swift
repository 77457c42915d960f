import ArgumentParser
import Foundation
import Receipts
import SafeText
import Terminal

struct ReceiptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt", abstract: "Decode Apple receipts, verifyReceipt answers and JWS.",
        subcommands: [ReceiptDecodeCommand.self])
}

struct ReceiptDecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode any Apple data and check its signature.",
        discussion: """
            Reads a file (or - for standard input) and recognises: a PKCS#7 app receipt (base64 \
            or DER), an iOS 6 transaction receipt, a verifyReceipt answer, a JWS (transaction, \
            renewal info, app transaction, notification), a notification's signedPayload JSON, \
            or an App Store Server API answer. Signatures are checked against the configured \
            trust roots; without them the verdict is UNVERIFIED with the reason.
            """)

    @Argument(help: "The file to decode, or - for standard input.")
    var file: String = "-"

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Option(name: .long, help: "Directory of trusted root certificates (overrides receipts.trust_roots / IAPDESK_TRUST_ROOTS).")
    var trustRoots: String?

    @Option(name: .long, help: "The StoreKit test certificate to trust for Xcode receipts (overrides receipts.xcode_root).")
    var xcodeRoot: String?

    @Option(name: .long, help: "Configuration file.")
    var config: String?

    func run() async throws {
        var configuration = try Configuration.load(path: config)
        if let trustRoots { configuration.trustRoots = trustRoots }
        if let xcodeRoot { configuration.xcodeRoot = xcodeRoot }
        let trust = try configuration.trust()
        let input = try BoundedInput.read(file, limit: AppleDataDetector.maxInputBytes)
        let data: AppleData
        do {
            data = try AppleDataDetector.detect(input)
        } catch {
            throw ValidationError("\(file == "-" ? "standard input" : Output.safe(file)): \(error)")
        }
        let document = await ReceiptDocumentBuilder.build(data, trust: trust)
        print(json ? try ReceiptOutput.json(document) : ReceiptOutput.text(document))
    }
}

/// Prints a `ReceiptDocument`. Every value came from data, so every value is sanitized.
enum ReceiptOutput {
    static func text(_ document: ReceiptDocument) -> String {
        var lines = ["kind        \(document.kind)"]
        for signature in document.signatures {
            lines.append("signature   \(Output.safe(signature.subject)): \(Output.safe(signature.summary))")
        }
        for section in document.sections {
            lines.append("")
            lines.append("== \(Output.safe(section.title))")
            if !section.fields.isEmpty {
                lines.append(Output.keyValues(section.fields.map { (Output.safe($0.name), Output.safe($0.value)) }))
            }
            if let table = section.table {
                lines.append(table.rows.isEmpty ? "(none)" : Output.table(table.columns, table.rows.map { $0.map(Output.safe) }))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ document: ReceiptDocument) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Every value came from data: what a terminal would act on is escaped.
        return Sanitizer.jsonEscaped(String(decoding: try encoder.encode(document), as: UTF8.self))
    }
}
