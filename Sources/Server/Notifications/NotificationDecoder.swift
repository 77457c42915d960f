import AppStore
import Foundation
import OrderDomain
import OrderStore
import Receipts

/// Turns Apple's `signedPayload` into what the store keeps: verified — the ES256
/// signature, the x5c chain to the configured roots at `signedDate` with Apple's marker
/// OIDs, the bundle id of an app the store serves (which it is routed to), the environment
/// of the URL it came to, and the transaction and renewal info inside signed the same way —
/// or rejected with the reason. The receiver and the history sweep both come through here.
public struct NotificationDecoder: Sendable {
    let trust: TrustRoots
    /// The apps the store serves: one URL takes every game's notifications.
    let bundleIds: [String]

    /// The most of a rejected payload kept for operators to look at, in UTF-8 bytes.
    static let rejectedRawLimit = 16 * 1024

    public init(trust: TrustRoots, bundleIds: [String]) {
        self.trust = trust
        self.bundleIds = bundleIds
    }

    public func decode(signedPayload: String, endpoint: AppleEnvironment, via: NotificationChannel, now: Date = Date()) async -> IncomingNotification {
        func rejected(_ reason: NotificationRejection, _ facts: NotificationFacts = NotificationFacts()) -> IncomingNotification {
            IncomingNotification(endpoint: endpoint, via: via, raw: Self.storable(signedPayload, limit: Self.rejectedRawLimit), rejection: reason, facts: facts)
        }
        let jws: JWS
        do {
            jws = try JWS(compact: signedPayload)
        } catch {
            return rejected(.notSigned("\(error)"))
        }
        // What it claims, shown to operators even when it fails its checks; decoded once.
        let decoded = Result { () throws(ReceiptError) in try jws.decodePayload(ServerNotification.self) }
        let claimed = Self.facts(try? decoded.get())
        let notification: ServerNotification
        do {
            try await jws.check(trust: trust, bundleId: nil, now: now)
            notification = try decoded.get()
        } catch {
            return rejected(.signatureRefused("\(error)"), claimed)
        }
        let bundleId = Self.app(of: notification)
        guard let bundleId, bundleIds.contains(bundleId) else {
            return rejected(.otherApp(bundleId, served: bundleIds), claimed)
        }
        let environment = Self.environment(of: notification)
        if let environment, environment != endpoint.rawValue {
            return rejected(.wrongEnvironment(signed: environment, endpoint: endpoint), claimed)
        }
        var facts = claimed
        do {
            if let signed = notification.data?.signedTransactionInfo {
                let transaction = try await JWS(compact: signed).verified(as: JWSTransaction.self, trust: trust, bundleId: bundleId, now: now)
                guard let decoded = AppleTransaction(transaction) else { return rejected(.transactionIncomplete, claimed) }
                facts.transaction = decoded
            }
            if let signed = notification.data?.signedRenewalInfo {
                let renewal = try await JWS(compact: signed).verified(as: JWSRenewalInfo.self, trust: trust, bundleId: nil, now: now)
                facts.renewal = AppleRenewalInfo(renewal)
            }
            if let signed = notification.appData?.signedAppTransactionInfo {
                let app = try await JWS(compact: signed).verified(as: JWSAppTransaction.self, trust: trust, bundleId: bundleId, now: now)
                facts.appTransactionId = app.appTransactionId
            }
        } catch {
            return rejected(.insideRefused("\(error)"), claimed)
        }
        return IncomingNotification(endpoint: endpoint, via: via, raw: Self.storable(signedPayload, limit: .max), rejection: nil, facts: facts)
    }

    /// A body that is not `{"signedPayload": …}` at all, kept for operators the same way.
    public func garbage(_ body: String, endpoint: AppleEnvironment, via: NotificationChannel) -> IncomingNotification {
        IncomingNotification(
            endpoint: endpoint, via: via, raw: Self.storable(body, limit: Self.rejectedRawLimit),
            rejection: .notSignedPayloadBody, facts: NotificationFacts())
    }

    private static func facts(_ notification: ServerNotification?) -> NotificationFacts {
        var facts = NotificationFacts(
            uuid: notification?.notificationUUID, type: notification?.notificationType, subtype: notification?.subtype,
            signedDate: notification?.signedDate?.milliseconds,
            environment: notification.flatMap(environment(of:)),
            consumptionRequestReason: notification?.data?.consumptionRequestReason)
        facts.app = notification.flatMap(app(of:))
        facts.status = notification?.data?.status
        facts.externalPurchaseToken = notification?.externalPurchaseToken.map {
            NotificationFacts.ExternalPurchaseToken(
                externalPurchaseId: $0.externalPurchaseId, tokenCreationDate: $0.tokenCreationDate?.milliseconds, appAppleId: $0.appAppleId,
                bundleId: $0.bundleId, tokenType: $0.tokenType, tokenExpirationDate: $0.tokenExpirationDate?.milliseconds)
        }
        facts.extensionSummary = notification?.summary.map {
            NotificationFacts.ExtensionSummary(
                requestIdentifier: $0.requestIdentifier, productId: $0.productId, succeededCount: $0.succeededCount, failedCount: $0.failedCount)
        }
        return facts
    }

    /// The app a notification names: in `data`, `summary` or `appData`, or, for an
    /// EXTERNAL_PURCHASE_TOKEN, inside the token.
    private static func app(of notification: ServerNotification) -> String? {
        notification.data?.bundleId ?? notification.summary?.bundleId ?? notification.appData?.bundleId
            ?? notification.externalPurchaseToken?.bundleId
    }

    /// The environment a notification names; an external purchase token names none, and is
    /// a sandbox one when its id says `SANDBOX…`, as Apple's library reads it.
    private static func environment(of notification: ServerNotification) -> String? {
        if let token = notification.externalPurchaseToken, notification.data == nil {
            return token.externalPurchaseId?.hasPrefix("SANDBOX") == true ? AppleEnvironment.sandbox.rawValue : AppleEnvironment.production.rawValue
        }
        return notification.data?.environment ?? notification.summary?.environment ?? notification.appData?.environment
    }

    /// Text both databases keep: at most `limit` bytes, without NUL (PostgreSQL's text
    /// refuses it). Bounded by bytes: a bound in Characters walked the grapheme breaks of
    /// every notification kept whole. The cut falls before the scalar it would split.
    private static func storable(_ text: String, limit: Int) -> String {
        var text = text
        // Over the contiguous bytes: the UTF-8 view's own `contains` went index by index.
        if text.utf8.withContiguousStorageIfAvailable({ $0.contains(0) }) ?? text.utf8.contains(0) {
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
        }
        let bytes = text.utf8
        guard bytes.count > limit else { return text }
        var end = bytes.index(bytes.startIndex, offsetBy: limit)
        while end > bytes.startIndex, bytes[end] & 0xC0 == 0x80 { end = bytes.index(before: end) }  // a continuation byte
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
