import OrderDomain
import OrderStore
import Presentation

/// Extending a subscription's renewal date from the console: the same request `iapdesk
/// subscription extend` sends, Apple's rules said in the dialog and checked before Apple is
/// asked.
enum SubscriptionActions {
    static let extendBinding = KeyBinding(.character("e"), action: "extend")

    static func extend(_ s: Subscription, detail: SubscriptionDetail, session: ConsoleSession) -> ScreenAction {
        guard let apple = session.appleActions else {
            return .flash("extending with Apple needs the App Store Server API key ([apple] key_file, key_id, issuer_id)", isError: true)
        }
        let (store, actor, otid) = (session.store, session.actor, s.originalTransactionId)
        let yearAgo = session.clock() - .hours(365 * 24)
        let recent = detail.extensions.filter { $0.outcome == .sent && $0.claimedAt >= yearAgo }.count
        let codes = ExtensionRule.reasonCodes.map { "\($0) \(ExtensionRule.reasonCodeWords(of: $0))" }.joined(separator: ", ")
        let (daysField, codeField) = (DialogField("Days"), DialogField("Reason code (0-3)", prefilled: "1"))
        return .dialog(
            Dialog(
                title: "Extend subscription \(otid)",
                lines: [
                    "\(s.productId) for \(s.ownerAccount ?? "no owner yet"): \(s.status.rawValue), ends \(TimeText.full(s.expiresAt)).",
                    "Apple extends an active subscription by 1 to \(ExtensionRule.maxDays) days, at most \(ExtensionRule.maxPerYear) times in 365 days (\(recent) so far). Reason codes: \(codes).",
                    "The new end is Apple's; the game is told as a renewal. Audited.",
                ],
                fields: [daysField, codeField, .reason], confirm: "ask Apple"
            ) { values in
                guard let days = Int(values[daysField]) else { throw DialogInputError("days: a whole number from 1 to \(ExtensionRule.maxDays)") }
                guard let code = Int(values[codeField]) else { throw DialogInputError("reason code: 0 to 3") }
                let asked = try await store.extensions.extend(originalTransactionId: otid, days: days, reasonCode: code, by: actor, reason: values[.reason]) {
                    await apple.extensionAnswer(originalTransactionId: $0, days: $1, reasonCode: $2, requestId: $3, environment: $4)
                }
                guard asked.outcome == .sent else { throw AppleRefusal(description: "Apple refused the extension: \(asked.appleError ?? "no reason given")") }
                return "extended \(otid) by \(days) days: now ends \(TimeText.full(asked.newExpiry))"
            })
    }

    /// `e` on a Google Play subscription: Play's only extension, a deferral of its next
    /// renewal; Google's new end, or its refusal as Google said it.
    static func deferAtGoogle(_ s: Subscription, session: ConsoleSession) -> ScreenAction {
        guard let google = session.playActions else {
            return .flash(GoogleOrderWords.needsServiceAccount("deferring"), isError: true)
        }
        let (store, actor, otid) = (session.store, session.actor, s.originalTransactionId)
        let daysField = DialogField("Days")
        return .dialog(
            Dialog(
                title: "Defer subscription \(otid) at Google",
                lines: [
                    "\(s.productId) for \(s.ownerAccount ?? "no owner yet"): \(s.status.rawValue), ends \(TimeText.full(s.expiresAt)).",
                    "Google moves the next renewal later by 1 to \(GooglePlayPurchases.maxDeferDays) days, free for the player. The new end is Google's; the game is told as a renewal. Audited.",
                ],
                fields: [daysField, .reason], confirm: "ask Google"
            ) { values in
                guard let days = Int(values[daysField]) else {
                    throw DialogInputError("days: a whole number from 1 to \(GooglePlayPurchases.maxDeferDays)")
                }
                let answer = try await store.googlePlay.deferRenewal(originalTransactionId: otid, days: days, by: actor, reason: values[.reason]) {
                    await google.deferAnswer(package: $0, purchaseToken: $1, seconds: $2)
                }
                switch answer {
                case .deferred(let end): return "deferred \(otid) by \(days) days at Google: now ends \(TimeText.full(end))"
                case .refused(let why): throw GoogleRefusal(description: "Google refused: \(why)")
                }
            })
    }

    static let deferAllBinding = KeyBinding(.character("E"), action: "defer all of the product at Google")

    /// `E` on a Google Play subscription, after an outage: defer every active subscriber of
    /// its product at Google (Play has no mass extension), one after another with a progress
    /// bar, each audited; Esc stops before the next one.
    static func deferAllAtGoogle(_ s: Subscription, session: ConsoleSession) -> ScreenAction {
        guard let google = session.playActions else {
            return .flash(GoogleOrderWords.needsServiceAccount("deferring"), isError: true)
        }
        let (store, actor, productId) = (session.store, session.actor, s.productId)
        let daysField = DialogField("Days")
        return .dialog(
            Dialog(
                title: "Defer every \(productId) subscriber at Google",
                lines: [
                    "Every active Google Play subscription of \(productId) is deferred by the same days, one after another, each audited with your reason.",
                    "Google moves each next renewal later by 1 to \(GooglePlayPurchases.maxDeferDays) days, free for the players; Esc stops before the next.",
                ],
                fields: [daysField, .reason], confirm: "ask Google",
                startJob: { values in
                    guard let days = Int(values[daysField]), (1...GooglePlayPurchases.maxDeferDays).contains(days) else {
                        throw DialogInputError("days: a whole number from 1 to \(GooglePlayPurchases.maxDeferDays)")
                    }
                    let reason = values[.reason]
                    return BackgroundJob(title: "deferring \(productId) at Google") { job in
                        do {
                            let summary = try await store.googlePlay.deferAll(
                                productId: productId, days: days, by: actor, reason: reason, shouldContinue: { !job.isStopping },
                                progress: { job.report(done: $0, total: $1) }
                            ) { await google.deferAnswer(package: $0, purchaseToken: $1, seconds: $2) }
                            let refused = PlayDeferAllWords.refusals(summary).first.map { "; \($0)" } ?? ""
                            return (PlayDeferAllWords.headline(summary, productId: productId, days: days) + refused, !summary.refused.isEmpty)
                        } catch {
                            return (ErrorWords.text(error), true)
                        }
                    }
                })
        )
    }

    static let revokeAtGoogleBinding = KeyBinding(.character("$"), action: "revoke at Google")

    /// `$` on a Google Play subscription: Google ends it now and refunds it; its voided
    /// notice then revokes it here (R9).
    static func revokeAtGoogle(_ s: Subscription, session: ConsoleSession) -> ScreenAction {
        guard let google = session.playActions else {
            return .flash(GoogleOrderWords.needsServiceAccount("revoking"), isError: true)
        }
        let (store, actor, otid) = (session.store, session.actor, s.originalTransactionId)
        let proratedField = DialogField("Prorated refund (yes/no)", prefilled: "no")
        return .dialog(
            Dialog(
                title: "Revoke subscription \(otid) at Google",
                lines: [
                    "\(s.productId) for \(s.ownerAccount ?? "no owner yet"): \(s.status.rawValue), ends \(TimeText.full(s.expiresAt)).",
                    "Google ends it now and refunds the player (in full, or the unused time); its notice revokes it here and tells the game (R9).",
                ],
                fields: [proratedField, .reason], confirm: "revoke"
            ) { values in
                let prorated = values[proratedField].lowercased().hasPrefix("y")
                if let refusal = try await store.googlePlay.revokeSubscription(
                    originalTransactionId: otid, prorated: prorated, by: actor, reason: values[.reason],
                    tell: {
                        await google.revokeRefusal(package: $0, purchaseToken: $1, prorated: $2)
                    })
                {
                    throw GoogleRefusal(description: "Google refused: \(refusal)")
                }
                return "Google revokes \(otid) (\(prorated ? "prorated" : "full") refund); its notice ends it here"
            })
    }

    static let rebindBinding = KeyBinding(.character("b"), action: "rebind Apple's token")

    /// `b`: after a transfer, Apple's purchase carries the new owner's token.
    static func rebind(_ s: Subscription, session: ConsoleSession) -> ScreenAction {
        guard let apple = session.appleActions else {
            return .flash("rebinding needs the App Store Server API key ([apple] key_file, key_id, issuer_id)", isError: true)
        }
        let (store, actor, otid) = (session.store, session.actor, s.originalTransactionId)
        return .dialog(
            Dialog(
                title: "Rebind subscription \(otid)",
                lines: [
                    "Apple's purchase will carry the token of \(s.ownerAccount ?? "its owner")'s newest order on it (Set App Account Token),",
                    "so Apple's later notifications name the owner R8 settled on. Audited.",
                ],
                fields: [.reason],
                confirm: "ask Apple"
            ) { values in
                let rebound = try await store.subscriptions.rebind(originalTransactionId: otid, by: actor, reason: values[.reason]) {
                    await apple.accountTokenRefusal(token: $0, originalTransactionId: $1, environment: $2)
                }
                if let error = rebound.appleError { throw AppleRefusal(description: "Apple refused the token: \(error)") }
                return "Apple now names \(rebound.ownerAccount)'s order \(rebound.orderId)"
            })
    }
}
