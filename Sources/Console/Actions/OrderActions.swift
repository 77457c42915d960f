import OrderDomain
import OrderStore
import Presentation
import Terminal

/// The actions the console offers on an order. Each is the same OrderStore operation the
/// command line runs (`iapdesk order grant …`), so the rules, the audit and exactly-once
/// delivery are the store's, never the screen's.
enum OrderActions {
    /// The rows for `order`: acting (settle, re-verify, grant, revoke), as the store allows
    /// them in the order's state, then reading (receipt, subscription, account) for
    /// everyone. What resolves the order comes first: on a narrow terminal the footer keeps it.
    static func commands(for order: Order?, session: ConsoleSession) -> [KeyCommand] {
        guard let order else { return [] }
        // Whether the order's state allows it at all, and the least role the store lets do it
        // (a rejected order is granted or re-verified only by an admin).
        let (byAdmin, bySupport) = (OrderPermissions.allowed(on: order, role: .admin), OrderPermissions.allowed(on: order, role: .support))
        func acting(_ key: Character, _ name: String, _ operation: OrderOperation, _ run: @escaping () -> ScreenAction) -> KeyCommand {
            let available = byAdmin.contains(operation)
            return KeyCommand(
                KeyBinding(.character(key), action: name), who: !available || bySupport.contains(operation) ? .support : .admin, available: available,
                run: run)
        }
        let subscription = order.originalTransactionId.flatMap { session.productTypes[order.productId] == .autoRenewable ? $0 : nil }
        return [
            acting("d", "settle dispute", .settle) { settleDispute(order, session: session) },
            acting("r", "re-verify", .reverify) { reverify(order.orderId, session: session) },
            acting("g", "grant", .grant) { grant(order, session: session) },
            acting("x", "revoke", .revoke) { revoke(order, session: session) },
            KeyCommand(KeyBinding(.character("v"), action: "receipt")) { .push(ReceiptScreen(orderId: order.orderId)) },
            KeyCommand(KeyBinding(.character("o"), action: "subscription"), available: subscription != nil) {
                subscription.map { .push(SubscriptionScreen(originalTransactionId: $0)) } ?? .none
            },
            KeyCommand(KeyBinding(.character("a"), action: "account")) { .push(AccountScreen(accountId: order.accountId)) },
        ] + [PlayRefundActions.command(for: order, session: session)].compactMap { $0 }
    }

    /// `r`: re-verify with Apple in the background; the outcome becomes the message.
    static func reverify(_ orderId: String, session: ConsoleSession) -> ScreenAction {
        guard let verifier = session.verifier else {
            return .flash("re-verify needs Apple (or the simulator) configured: see [apple] in iapdesk.toml", isError: true)
        }
        let (store, actor) = (session.store, session.actor)
        return .job(
            BackgroundJob(title: "re-verifying \(orderId)") { _ in
                do {
                    return (VerificationPresentation.oneLine(try await store.apple.reverify(orderId: orderId, using: verifier, by: actor)), false)
                } catch {
                    return ("\(orderId): \(ErrorWords.text(error))", true)
                }
            })
    }

    /// `R` on a queue: re-verify every listed order, 8 at a time, with a progress bar; Esc
    /// stops new calls (those in flight finish and are recorded).
    static func reverifyAll(_ orderIds: [String], session: ConsoleSession) -> ScreenAction {
        guard let verifier = session.verifier else {
            return .flash("re-verify needs Apple (or the simulator) configured: see [apple] in iapdesk.toml", isError: true)
        }
        guard !orderIds.isEmpty else { return .flash("nothing to re-verify", isError: false) }
        let (store, actor) = (session.store, session.actor)
        return .job(
            BackgroundJob(title: "re-verifying \(orderIds.count) orders") { job in
                job.report(done: 0, total: orderIds.count)
                let result = await store.apple.reverifyAll(orderIds, using: verifier, by: actor, concurrency: 8, shouldContinue: { !job.isStopping }) {
                    progress in
                    job.report(done: progress.done, total: progress.total)
                }
                let stopped = result.done < result.total ? " (stopped at \(result.done) of \(result.total))" : ""
                let firstFailure = result.failed.first.map { ": \($0.orderId): \(ErrorWords.what($0.error))" } ?? ""
                return (result.summary + firstFailure + stopped, !result.failed.isEmpty)
            })
    }

    /// `g`: deliver by hand, with a reason, against the version on screen.
    static func grant(_ order: Order, session: ConsoleSession) -> ScreenAction {
        let (store, actor) = (session.store, session.actor)
        var lines = [
            "Deliver \(order.productId) to account \(order.accountId) now, by hand.",
            "The order is \(order.state.rawValue); it becomes delivered. It is delivered exactly once: if someone delivered it meanwhile, nothing is granted.",
        ]
        // R7: a replayed receipt paid for another order; granting this one gives a second
        // delivery for one payment. Say so before the reason is typed.
        if order.replayFlag {
            lines.append(
                "WARNING: rejected as a replay. \(ReasonWords.lastError(order) ?? "Its purchase was already claimed by another order.") Granting delivers twice for one payment."
            )
        }
        lines.append("Recorded in the audit log as \(actor.name) (\(actor.role.rawValue)) with your reason.")
        return .dialog(
            Dialog(
                title: "Grant \(order.orderId)",
                lines: lines,
                fields: [.reason],
                confirm: "grant"
            ) { values in
                let granted = try await store.orders.grant(orderId: order.orderId, expectedVersion: order.version, by: actor, reason: values[.reason])
                return "granted \(granted.orderId): now \(granted.state.rawValue)"
            })
    }

    /// `x`: take a delivery back, with a reason.
    static func revoke(_ order: Order, session: ConsoleSession) -> ScreenAction {
        let (store, actor) = (session.store, session.actor)
        return .dialog(
            Dialog(
                title: "Revoke \(order.orderId)",
                lines: [
                    "Take back the delivery of \(order.productId) from account \(order.accountId).",
                    "The grant is marked revoked (it stays in the history). Recorded in the audit log as \(actor.name) with your reason.",
                ],
                fields: [.reason],
                confirm: "revoke"
            ) { values in
                let revoked = try await store.orders.revoke(orderId: order.orderId, expectedVersion: order.version, by: actor, reason: values[.reason])
                return "revoked \(revoked.orderId): now \(revoked.state.rawValue)"
            })
    }

    /// `d` on a disputed renewal (R8): the rule's verdict stands (owner) or the submitting
    /// account gets it (submitter), with a reason.
    static func settleDispute(_ order: Order, session: ConsoleSession) -> ScreenAction {
        let (store, actor) = (session.store, session.actor)
        let favorField = DialogField("Favor (owner or submitter)")
        return .dialog(
            Dialog(
                title: "Settle dispute on \(order.orderId)",
                lines: [
                    "Account \(order.accountId) submitted a renewal of subscription \(order.originalTransactionId ?? "-"), which R8 gave to its owner.",
                    "Type owner to let the verdict stand (the order is rejected), or submitter to give this account the renewal (delivered, ownership moves).",
                    ReasonWords.lastError(order).map { "The rule said: \($0)" } ?? "",
                ],
                fields: [favorField, .reason], confirm: "settle"
            ) { values in
                guard let favor = Favor(rawValue: values[favorField]) else {
                    throw DialogInputError("favor is \(Favor.allCases.map(\.rawValue).joined(separator: " or "))")
                }
                let settled = try await store.subscriptions.resolve(
                    orderId: order.orderId, expectedVersion: order.version, favor: favor, by: actor, reason: values[.reason])
                return "dispute on \(settled.orderId) settled: now \(settled.state.rawValue)"
            })
    }
}
