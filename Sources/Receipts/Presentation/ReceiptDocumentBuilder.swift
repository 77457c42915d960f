import Foundation

/// Builds a `ReceiptDocument` from detected Apple data, checking every signature in it.
public enum ReceiptDocumentBuilder {
    /// Sections of fields and tables for any detected Apple data, with a verdict for every
    /// signature in it (the receipt's, each JWS's), checked against `trust` at `now`.
    public static func build(_ data: AppleData, trust: TrustRoots, now: Date = Date()) async -> ReceiptDocument {
        var document = ReceiptDocument(kind: data.kindName, signatures: [], sections: [])
        switch data {
        case .appReceipt(let decoded):
            let verdict = await decoded.verifySignature(trust: trust, now: now)
            document.signatures.append(.init(subject: "receipt", verdict: verdict))
            document.sections = appReceiptSections(decoded.receipt)
        case .transactionReceipt(let receipt):
            document.signatures.append(.init(subject: "receipt", verdict: receipt.verifySignature()))
            var fields: [ReceiptDocument.Field] = []
            fields.add("environment", receipt.environment)
            for field in receipt.fields { fields.add(field.key, field.value) }
            document.sections = [.init(title: "purchase-info", fields: fields)]
        case .verifyReceiptResponse(let response):
            document.sections = verifyReceiptSections(response)
        case .notificationV1(let type, let unified):
            // The V1 body also carries the shared secret (`password`): never shown.
            document.sections = [.init(title: "Notification V1", fields: [.init(name: "notification_type", value: type)])]
            if let unified { document.sections += verifyReceiptSections(unified) }
        case .jws(let jws, let kind):
            await addJWS(jws, kind: kind, subject: "jws", to: &document, trust: trust, now: now)
        case .signedJSON(let fields):
            for field in fields {
                if let jws = field.jws {
                    await addJWS(jws, kind: field.kind, subject: field.path, to: &document, trust: trust, now: now)
                } else {
                    document.sections.append(.init(title: field.path, fields: [.init(name: "value", value: "\(field.text) (not a JWS)")]))
                }
            }
        case .unsignedPayload(let bytes, let kind):
            document.signatures.append(.init(subject: "payload", verdict: .unverified("plain JSON: there is no signature to check")))
            document.sections = payloadSections(bytes, title: kind.rawValue.capitalized)
            for nested in nestedJWS(in: bytes) {
                await addJWS(nested.jws, kind: JWSKind.of(nested.jws), subject: nested.path, to: &document, trust: trust, now: now)
            }
        case .serverAPIError(let code, let message):
            var fields: [ReceiptDocument.Field] = []
            fields.add("errorCode", code)
            fields.add("errorMessage", message)
            document.sections = [.init(title: "App Store Server API error", fields: fields)]
        }
        return document
    }

    // MARK: App receipts

    static func appReceiptSections(_ receipt: AppReceipt) -> [ReceiptDocument.Section] {
        var header: [ReceiptDocument.Field] = []
        header.add("receipt type", receipt.receiptType)
        header.add("bundle id", receipt.bundleId)
        header.add("app item id", receipt.appItemId)
        header.add("app version", receipt.appVersion)
        header.add("original app version", receipt.originalApplicationVersion)
        header.add("created", receipt.receiptCreationDate)
        header.add("request date", receipt.requestDate)
        header.add("original purchase", receipt.originalPurchaseDate)
        header.add("expires", receipt.expirationDate)
        header.add("in-app purchases", receipt.inAppPurchases.count)
        header.add("device hash", receipt.sha1Hash == nil ? nil : "present (checkable on the device only)")
        let rows = receipt.inAppPurchases
            .sorted { ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast) }
            .map { p in
                [
                    date(p.purchaseDate), p.transactionId ?? "", p.originalTransactionId ?? "", p.productId ?? "",
                    p.quantity.map(String.init) ?? "", date(p.expiresDate), date(p.cancellationDate),
                    p.webOrderLineItemId.map(String.init) ?? "", flags(trial: p.isTrialPeriod, intro: p.isInIntroOfferPeriod),
                ]
            }
        return [
            .init(title: "App receipt", fields: header),
            .init(title: "In-app purchases (by purchase date)", table: .init(columns: transactionColumns, rows: rows)),
        ]
    }

    static let transactionColumns = ["purchased", "transaction", "original", "product", "qty", "expires", "cancelled", "web order line", "offer"]

    // MARK: verifyReceipt

    static func verifyReceiptSections(_ response: VerifyReceiptResponse) -> [ReceiptDocument.Section] {
        var header: [ReceiptDocument.Field] = []
        header.add("status", response.status)
        header.add("environment", response.environment)
        header.add("retryable", response.isRetryable)
        if let receipt = response.receipt {
            header.add("receipt type", receipt.receiptType)
            header.add("bundle id", receipt.bundleId)
            header.add("app version", receipt.applicationVersion)
            header.add("created", receipt.receiptCreationDate)
            header.add("in_app", receipt.inApp.count)
        }
        header.add("latest_receipt_info", response.latestReceiptInfo.count)
        header.add("latest receipt", response.latestReceipt.map { "\($0.count) base64 characters" })
        var sections: [ReceiptDocument.Section] = [.init(title: "verifyReceipt answer", fields: header)]
        let rows = response.allTransactions.reversed().map { t in
            [
                date(t.purchaseDate), t.transactionId ?? "", t.originalTransactionId ?? "", t.productId ?? "",
                t.quantity.map(String.init) ?? "", date(t.expiresDate),
                t.cancellationDate.map { RFC3339.format($0) + (t.cancellationReason.map { " (reason \($0))" } ?? "") } ?? "",
                t.webOrderLineItemId ?? "", flags(trial: t.isTrialPeriod, intro: t.isInIntroOfferPeriod),
            ]
        }
        if !rows.isEmpty {
            sections.append(
                .init(title: "Transactions (in_app and latest_receipt_info merged, by purchase date)", table: .init(columns: transactionColumns, rows: rows)))
        }
        if !response.pendingRenewalInfo.isEmpty {
            let renewals = response.pendingRenewalInfo.map { r in
                [
                    r.originalTransactionId ?? "", r.productId ?? "", r.autoRenewProductId ?? "",
                    r.autoRenewStatus.map { $0 ? "on" : "off" } ?? "", r.expirationIntent.map(String.init) ?? "",
                    r.isInBillingRetryPeriod.map { $0 ? "yes" : "no" } ?? "",
                ]
            }
            sections.append(
                .init(
                    title: "Pending renewal info",
                    table: .init(
                        columns: ["original", "product", "renews to", "auto-renew", "expiration intent", "billing retry"], rows: renewals)))
        }
        return sections
    }

    // MARK: JWS

    static func addJWS(_ jws: JWS, kind: JWSKind, subject: String, to document: inout ReceiptDocument, trust: TrustRoots, now: Date) async {
        document.signatures.append(.init(subject: subject, verdict: await jws.verify(trust: trust, now: now)))
        var title = "\(subject): \(kind.rawValue)"
        if let x5c = jws.header.x5c { title += " (x5c: \(x5c.count) certificates)" }
        document.sections += payloadSections(jws.payload, title: title)
        // A notification carries its transaction and renewal info as JWS of their own.
        for nested in nestedJWS(in: jws.payload) {
            await addJWS(nested.jws, kind: JWSKind.of(nested.jws), subject: "\(subject) → \(nested.path)", to: &document, trust: trust, now: now)
        }
    }

    static func nestedJWS(in payload: [UInt8]) -> [(path: String, jws: JWS)] {
        guard case .object(let object)? = JSONValue.parse(payload), case .object(let data)? = object["data"] else { return [] }
        return ["signedTransactionInfo", "signedRenewalInfo"].compactMap { key in
            guard case .string(let text)? = data[key], let jws = try? JWS(compact: text) else { return nil }
            return ("data.\(key)", jws)
        }
    }

    /// Every field of a JSON payload, dates (`…Date` in ms) shown as RFC 3339; nested
    /// signed strings are listed by size, since they get their own section.
    static func payloadSections(_ payload: [UInt8], title: String) -> [ReceiptDocument.Section] {
        guard case .object(let object)? = JSONValue.parse(payload) else {
            return [.init(title: title, fields: [.init(name: "payload", value: "not a JSON object")])]
        }
        var fields: [ReceiptDocument.Field] = []
        flatten(object, prefix: "", into: &fields, depth: 0)
        return [.init(title: title, fields: fields)]
    }

    private static func flatten(_ object: [String: JSONValue], prefix: String, into fields: inout [ReceiptDocument.Field], depth: Int) {
        for key in object.keys.sorted() {
            let name = prefix.isEmpty ? key : "\(prefix).\(key)"
            switch object[key] {
            case .object(let nested)? where depth < 4:
                flatten(nested, prefix: name, into: &fields, depth: depth + 1)
            case .string(let text)? where key.hasPrefix("signed") && text.count > 100:
                fields.add(name, "signed data (\(text.count) characters, decoded below)")
            case .string(let text)?:
                fields.add(name, text)
            case .number(let value, _)? where key.hasSuffix("Date"):
                fields.add(name, RFC3339.format(Date(timeIntervalSince1970: value / 1000)))
            case let value?:
                fields.add(name, value.text)
            case nil:
                break
            }
        }
    }

    private static func date(_ value: Date?) -> String { value.map(RFC3339.format) ?? "" }

    private static func flags(trial: Bool?, intro: Bool?) -> String {
        [trial == true ? "trial" : nil, intro == true ? "intro" : nil].compactMap { $0 }.joined(separator: ",")
    }
}
