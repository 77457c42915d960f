import OrderStore
import Terminal

/// A table of items from the store, with a selection: the disputes, orphans and audit
/// screens are this with their own columns and what Enter opens.
final class ListScreen<Item>: ConsoleScreen {
    let name: String
    let columns: [Column]
    let fetch: (ConsoleSession) async throws -> [Item]
    let cells: (Item, Theme) -> [(String, Style?)]
    let open: ((Item) -> (any ConsoleScreen)?)?
    /// An action on the selected item, for operators who may act: its key and what it does.
    let action: (binding: KeyBinding, run: (Item, ConsoleSession) -> ScreenAction)?
    /// An action on the whole list (resend every dead event), likewise.
    let bulkAction: (binding: KeyBinding, run: ([Item], ConsoleSession) -> ScreenAction)?
    let empty: String
    private(set) var items: [Item] = []
    private var selected = 0
    private var top = 0

    init(name: String, columns: [Column], empty: String, fetch: @escaping (ConsoleSession) async throws -> [Item],
         cells: @escaping (Item, Theme) -> [(String, Style?)], open: ((Item) -> (any ConsoleScreen)?)? = nil,
         action: (binding: KeyBinding, run: (Item, ConsoleSession) -> ScreenAction)? = nil,
         bulkAction: (binding: KeyBinding, run: ([Item], ConsoleSession) -> ScreenAction)? = nil) {
        self.name = name
        self.columns = columns
        self.empty = empty
        self.fetch = fetch
        self.cells = cells
        self.open = open
        self.action = action
        self.bulkAction = bulkAction
    }

    var title: String { "\(name) [\(items.count)]" }

    func bindings(_ session: ConsoleSession) -> [KeyBinding] {
        let actions = session.readOnly || items.isEmpty ? [] : [action?.binding, bulkAction?.binding].compactMap { $0 }
        return (open == nil ? [] : [KeyBinding(.enter, action: "open")]) + actions + [KeyBinding(.escape, action: "back"), KeyBinding(.character("?"), action: "help")]
    }

    func load(_ session: ConsoleSession) async throws {
        items = try await fetch(session)
        selected = min(selected, max(0, items.count - 1))
    }

    func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        guard !items.isEmpty else {
            screen.write(empty, row: area.top + 1, col: 2, style: theme[.muted])
            return
        }
        top = Table.scroll(top: top, selected: selected, visible: area.rows - 1)
        Table.draw(&screen, area: area, columns: columns, rows: items.map { cells($0, theme) }, selected: selected, top: top, theme: theme)
    }

    func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        if let action, !session.readOnly, action.binding.keys.contains(key), items.indices.contains(selected) {
            return action.run(items[selected], session)
        }
        if let bulkAction, !session.readOnly, bulkAction.binding.keys.contains(key), !items.isEmpty {
            return bulkAction.run(items, session)
        }
        switch key {
        case .enter:
            guard items.indices.contains(selected), let screen = open?(items[selected]) else { return .none }
            return .push(screen)
        default:
            if let moved = Table.move(selected, by: key, count: items.count, page: area.rows - 2) { selected = moved }
        }
        return .none
    }
}

/// The lists `:disputes`, `:orphans`, `:audit`, `:notifications` and `:jobs` open.
enum Lists {
    static func disputes() -> ListScreen<OwnershipEvent> {
        ListScreen(
            name: "Disputes (R8 decisions to review)",
            columns: [Column(title: "WHEN", width: 16), Column(title: "SUBSCRIPTION", width: 16), Column(title: "ORDER", width: 14),
                      Column(title: "SUBMITTED BY", width: 12, flexible: true), Column(title: "VERDICT", width: 12), Column(title: "OWNER", width: 10)],
            empty: "No ownership decision is waiting for review.",
            fetch: { try await $0.store.disputes(limit: 500) },
            cells: { e, theme in
                [(String(Chrome.time(e.at).prefix(16)), theme[.muted]), (e.originalTransactionId, nil), (e.orderId ?? "-", nil),
                 (e.submittedBy, nil), (e.verdict.rawValue, theme[.state(.disputed)]), (e.toAccount, nil)]
            },
            open: { SubscriptionScreen(originalTransactionId: $0.originalTransactionId) })
    }

    /// R7: hand deliveries Apple later showed were paid by a purchase another order holds.
    static func conflicts() -> ListScreen<Order> {
        ListScreen(
            name: "Two deliveries for one purchase (R7)",
            columns: [Column(title: "WHEN", width: 16), Column(title: "ORDER", width: 14), Column(title: "ACCOUNT", width: 12, flexible: true),
                      Column(title: "PRODUCT", width: 11), Column(title: "ALSO PAID", width: 14)],
            empty: "No purchase was delivered twice.",
            fetch: { try await $0.store.deliveryConflicts(limit: 500) },
            cells: { o, theme in
                [(String(Chrome.time(o.stateChangedAt).prefix(16)), theme[.muted]), (o.orderId, nil), (o.accountId, nil),
                 (o.productId, nil), (o.deliveryConflict ?? "-", theme[.flashError])]
            },
            open: { OrderDetailScreen(orderId: $0.orderId) })
    }

    static func orphans() -> ListScreen<StoredTransaction> {
        ListScreen(
            name: "Orphans (transactions Apple knows, no order claims)",
            columns: [Column(title: "TRANSACTION", width: 17), Column(title: "ORIGINAL", width: 17), Column(title: "PRODUCT", width: 11, flexible: true),
                      Column(title: "PURCHASED", width: 16), Column(title: "ENV", width: 10)],
            empty: "No orphan transactions.",
            fetch: { try await $0.store.orphans(limit: 500) },
            cells: { o, theme in
                [(o.transaction.transactionId, nil), (o.transaction.originalTransactionId, theme[.muted]), (o.transaction.productId, nil),
                 (String(Chrome.time(o.transaction.purchaseDate).prefix(16)), theme[.muted]), (o.environment?.rawValue ?? "-", nil)]
            },
            action: (KeyBinding(.character("A"), action: "attach to order"), { orphan, session in
                let (store, actor, tid) = (session.store, session.actor, orphan.transaction.transactionId)
                return .dialog(Dialog(
                    title: "Attach transaction \(tid)",
                    lines: ["\(orphan.transaction.productId) bought \(Chrome.time(orphan.transaction.purchaseDate)); no order claims it.",
                            "Name the order it paid for: the rules check it like a receipt (R5, R7), then it is delivered once."],
                    inputs: ["Order id"], confirm: "attach"
                ) { values in
                    guard let order = try await store.order(values[0]) else { throw StoreError.notFound(kind: "order", id: values[0]) }
                    let attached = try await store.attachOrphan(transactionId: tid, to: order.orderId, expectedVersion: order.version, by: actor, reason: values[1])
                    return "\(tid) attached to \(attached.orderId): now \(attached.state.rawValue)"
                })
            }))
    }

    static func audit() -> ListScreen<AuditEntry> {
        ListScreen(
            name: "Audit log (newest first)",
            columns: [Column(title: "WHEN", width: 11), Column(title: "WHO", width: 8), Column(title: "ACTION", width: 16),
                      Column(title: "TARGET", width: 16), Column(title: "REASON / DETAIL", width: 12, flexible: true)],
            empty: "The audit log is empty.",
            fetch: { try await $0.store.auditLog(limit: 500) },
            cells: { e, theme in
                // MM-DD HH:MM keeps room for the reason, which is what support reads here.
                [(String(Chrome.time(e.at).dropFirst(5).prefix(11)), theme[.muted]), (e.actor, nil), (e.action, nil),
                 (e.target, nil), (e.reason.map { "\($0) · \(e.detail)" } ?? e.detail, e.reason == nil ? theme[.muted] : nil)]
            },
            open: { entry in
                entry.target.hasPrefix("order:") ? OrderDetailScreen(orderId: String(entry.target.dropFirst("order:".count)))
                    : entry.target.hasPrefix("otid:") ? SubscriptionScreen(originalTransactionId: String(entry.target.dropFirst("otid:".count))) : nil
            })
    }

    static func notifications() -> ListScreen<NotificationRecord> {
        ListScreen(
            name: "Notifications from Apple (newest first)",
            columns: [Column(title: "RECEIVED", width: 11), Column(title: "TYPE", width: 18), Column(title: "ENV", width: 10),
                      Column(title: "TRANSACTION", width: 17), Column(title: "OUTCOME", width: 10), Column(title: "DETAIL", width: 12, flexible: true)],
            empty: "No notification has come from Apple yet (iapdesk serve receives them).",
            fetch: { try await $0.store.notifications(limit: 500) },
            cells: { n, theme in
                [(String(Chrome.time(n.receivedAt).dropFirst(5).prefix(11)), theme[.muted]), (n.facts.kind, nil), (n.endpoint.rawValue, theme[.muted]),
                 (n.facts.transaction?.transactionId ?? "-", nil),
                 (n.outcome.rawValue, n.outcome == .rejected ? theme[.flashError] : n.outcome == .applied ? nil : theme[.muted]),
                 (n.rejection ?? n.detail ?? "-", theme[.muted])]
            },
            open: { NotificationScreen(id: $0.id) })
    }

    static func jobs() -> ListScreen<Job> {
        ListScreen(
            name: "Worker jobs (dead first)",
            columns: [Column(title: "ID", width: 7), Column(title: "KIND", width: 13), Column(title: "SUBJECT", width: 18),
                      Column(title: "DUE", width: 11), Column(title: "TRIES", width: 5), Column(title: "STATE / LAST ERROR", width: 12, flexible: true)],
            empty: "No jobs: nothing is owed to Apple or waiting to be applied.",
            fetch: { try await $0.store.jobs(limit: 500) },
            cells: { job, theme in
                [("\(job.id)", theme[.muted]), (job.kind.rawValue, nil), (job.subject, nil),
                 (String(Chrome.time(job.dueAt).dropFirst(5).prefix(11)), theme[.muted]), ("\(job.attempts)", nil),
                 (job.stateLabel() + (job.lastError.map { " · \($0)" } ?? ""), job.deadAt != nil ? theme[.flashError] : theme[.muted])]
            },
            open: { job in job.kind == .verify ? OrderDetailScreen(orderId: job.subject) : nil },
            action: (KeyBinding(.character("R"), action: "requeue dead"), { job, session in
                guard job.deadAt != nil else { return .flash("job \(job.id) is not dead; it runs on its own", isError: true) }
                let (store, actor) = (session.store, session.actor)
                return .dialog(Dialog(
                    title: "Requeue job \(job.id)",
                    lines: ["\(job.kind.rawValue) \(job.subject) failed \(job.attempts) times: \(job.lastError ?? "no error kept")",
                            "It runs again now, its tries counted from zero. The requeue is audited."],
                    inputs: [], confirm: "requeue"
                ) { values in
                    let requeued = try await store.requeueJob(id: job.id, by: actor, reason: values[0])
                    return "job \(requeued.id) is due now"
                })
            }))
    }

    static func undelivered() -> ListScreen<GameEvent> {
        ListScreen(
            name: "Events the game has not confirmed (oldest first)",
            columns: [Column(title: "WRITTEN", width: 11), Column(title: "TYPE", width: 10), Column(title: "ORDER", width: 14),
                      Column(title: "ACCOUNT", width: 10), Column(title: "TRIES", width: 5), Column(title: "DELIVERY", width: 12, flexible: true)],
            empty: "Nothing owed to the game: every event is confirmed.",
            fetch: { try await $0.store.unconfirmedEvents(limit: 500) },
            cells: { event, theme in
                [(String(Chrome.time(event.createdAt).dropFirst(5).prefix(11)), theme[.muted]), (event.type.rawValue, nil), (event.orderId ?? "-", nil),
                 (event.accountId, nil), ("\(event.attempts)", nil), (event.deliveryText, event.deadAt != nil ? theme[.flashError] : theme[.muted])]
            },
            open: { event in event.orderId.map { OrderDetailScreen(orderId: $0) } },
            action: (KeyBinding(.character("R"), action: "resend"), { event, session in
                let (store, actor) = (session.store, session.actor)
                return .dialog(Dialog(
                    title: "Resend \(event.eventId)",
                    lines: ["\(event.summary)", "\(event.deliveryText)",
                            "The worker sends it now; the game applies it once by its id. The resend is audited."],
                    inputs: [], confirm: "resend"
                ) { values in
                    let resent = try await store.resendEvent(event.eventId, by: actor, reason: values[0])
                    return "\(resent.eventId) is owed to the game again"
                })
            }),
            bulkAction: (KeyBinding(.character("A"), action: "resend all dead"), { events, session in
                let dead = events.filter { $0.deadAt != nil }.count
                guard dead > 0 else { return .flash("no dead event: the worker is still trying every one on its own", isError: false) }
                return .dialog(Dialog(
                    title: "Resend every dead event",
                    lines: ["\(dead)\(events.count >= 500 ? " or more" : "") events gave up after their retries. Each is sent once more now, and dead again if the game still fails.",
                            "The game applies each once by its id. Every resend is audited."],
                    inputs: [], confirm: "resend all"
                ) { values in
                    EventActions.resendAllDead(try await session.store.resendDeadEvents(by: session.actor, reason: values[0]), store: session.store)
                })
            }))
    }
}
