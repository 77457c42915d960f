import OrderDomain
import OrderStore
import Presentation
import Terminal

/// A table of items from the store, with a selection: the disputes, orphans and audit
/// screens are this with their own columns and what Enter opens.
final class ListScreen<Item>: ConsoleScreen {
    /// Its title, columns and empty text, as the command line prints the same list.
    private(set) var listing: Listing<Item>
    /// For a list whose cells read the clock (a countdown): made again on every load.
    let listingAt: ((Millis) -> Listing<Item>)?
    let fetch: (ConsoleSession) async throws -> [Item]
    let open: ((Item) -> (any ConsoleScreen)?)?
    /// An action on the selected item, for operators who may act: its key and what it does.
    let action: (binding: KeyBinding, run: (Item, ConsoleSession) -> ScreenAction)?
    /// An action on the whole list (resend every dead event), likewise.
    let bulkAction: (binding: KeyBinding, run: ([Item], ConsoleSession) -> ScreenAction)?
    private(set) var items: [Item] = []
    private var selected = 0
    private var top = 0

    init(
        _ listing: Listing<Item>, fetch: @escaping (ConsoleSession) async throws -> [Item], open: ((Item) -> (any ConsoleScreen)?)? = nil,
        action: (binding: KeyBinding, run: (Item, ConsoleSession) -> ScreenAction)? = nil,
        bulkAction: (binding: KeyBinding, run: ([Item], ConsoleSession) -> ScreenAction)? = nil,
        listingAt: ((Millis) -> Listing<Item>)? = nil
    ) {
        self.listing = listing
        self.listingAt = listingAt
        self.fetch = fetch
        self.open = open
        self.action = action
        self.bulkAction = bulkAction
    }

    var title: String { "\(listing.title) [\(items.count)]" }

    func commands(_ session: ConsoleSession) -> [KeyCommand] {
        let item = items.indices.contains(selected) ? items[selected] : nil
        var rows: [KeyCommand] = []
        if let open {
            let target = item.flatMap(open)
            rows.append(KeyCommand(KeyBinding(.enter, action: "open"), available: target != nil) { target.map { .push($0) } ?? .none })
        }
        if let action {
            rows.append(KeyCommand(action.binding, who: .support, available: item != nil) { item.map { action.run($0, session) } ?? .none })
        }
        if let bulkAction {
            rows.append(KeyCommand(bulkAction.binding, who: .support, available: !items.isEmpty) { bulkAction.run(self.items, session) })
        }
        return rows + [KeyCommand(KeyBinding(.escape, action: "back")), KeyCommand(KeyBinding(.character("?"), action: "help"))]
    }

    func load(_ session: ConsoleSession) async throws {
        if let listingAt { listing = listingAt(session.clock()) }
        items = try await fetch(session)
        selected = min(selected, max(0, items.count - 1))
    }

    func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        guard !items.isEmpty else {
            screen.write(listing.empty, row: area.top + 1, col: 2, style: theme[.muted])
            return
        }
        let top = Table.scroll(top: self.top, selected: selected, visible: area.rows - 1)
        Table.draw(&screen, area: area, listing: listing, items: items, selected: selected, top: top, theme: theme)
    }

    func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        if let moved = Table.move(selected, by: key, count: items.count, page: area.rows - 2) {
            selected = moved
            top = Table.scroll(top: top, selected: selected, visible: area.rows - 1)
        }
        return .none
    }
}

/// The lists `:disputes`, `:orphans`, `:audit`, `:notifications`, `:jobs`, `:undelivered`
/// and `:refunds` open.
enum Lists {
    /// Apple's refund requests still waiting for an answer, soonest deadline first; with
    /// `all`, those answered, refused by Apple or left past their deadline too.
    static func refunds(all: Bool = false) -> ListScreen<RefundRequest> {
        ListScreen(
            RefundRequestPresentation.queue(now: .now(), all: all),
            fetch: { try await $0.store.refunds.requests(open: !all, at: $0.clock(), limit: all ? 200 : 500, evidence: false) },
            open: { RefundRequestScreen(id: $0.notification.id) },
            action: (RefundActions.binding, RefundActions.answer),
            listingAt: { RefundRequestPresentation.queue(now: $0, all: all) })
    }

    static func disputes(store: Marketplace? = nil) -> ListScreen<Dispute> {
        ListScreen(
            OwnershipListings.disputes(store: store),
            fetch: { try await $0.store.subscriptions.disputes(limit: 500, in: store) },
            open: { SubscriptionScreen(originalTransactionId: $0.event.originalTransactionId) })
    }

    /// R7: hand deliveries Apple later showed were paid by a purchase another order holds.
    static func conflicts() -> ListScreen<Order> {
        ListScreen(
            OrderListings.conflicts(),
            fetch: { try await $0.store.orders.deliveryConflicts(limit: 500) },
            open: { OrderDetailScreen(orderId: $0.orderId) })
    }

    /// Google Play purchases paid and not acknowledged, soonest deadline first, with the time
    /// left; Enter opens the order, `a` acknowledges now.
    static func acknowledgements() -> ListScreen<OwedAcknowledgement> {
        ListScreen(
            QueueListings.acknowledgements(now: .now()),
            fetch: { try await $0.store.googlePlay.owedAcknowledgements(limit: 500) },
            open: { owed in owed.orderId.map { OrderDetailScreen(orderId: $0) } },
            action: (PlayAcknowledgeActions.binding, { owed, session in PlayAcknowledgeActions.acknowledge(owed, session: session) }),
            listingAt: { QueueListings.acknowledgements(now: $0) })
    }

    static func orphans() -> ListScreen<StoredTransaction> {
        ListScreen(
            QueueListings.orphans(),
            fetch: { try await $0.store.orders.orphans(limit: 500) },
            action: (OrphanActions.binding, { orphan, session in OrphanActions.attach(orphan, to: nil, session: session) }))
    }

    /// The purchases on Apple's invoice `appleOrderId` and where each leads: Enter opens the
    /// order, `A` attaches a purchase no order claims (to the order waiting for it, or one
    /// named). Read from what the store learned of the invoice: Apple is not asked again.
    static func invoice(_ appleOrderId: String) -> ListScreen<InvoicePurchase> {
        ListScreen(
            AppleInvoicePresentation.purchases(appleOrderId),
            fetch: { session in
                guard case .found(let invoice) = try await AppleOrderSearch.find(appleOrderId, session: session, askingApple: false) else { return [] }
                return invoice.purchases
            },
            open: { purchase in purchase.lead.order.map { OrderDetailScreen(orderId: $0.orderId) } },
            action: (
                OrphanActions.binding,
                { purchase, session in
                    switch purchase.lead {
                    case .claimed(let order): .flash("order \(order.orderId) claimed this purchase already", isError: true)
                    case .waiting(let order, _): OrphanActions.attach(purchase.transaction, to: order, session: session)
                    case .orphan: OrphanActions.attach(purchase.transaction, to: nil, session: session)
                    }
                }
            ))
    }

    static func audit() -> ListScreen<AuditEntry> {
        ListScreen(
            QueueListings.audit(),
            fetch: { try await $0.store.audit.entries(limit: 500) },
            open: { entry in
                switch entry.target {
                case .order(let id): OrderDetailScreen(orderId: id)
                case .originalTransaction(let id): SubscriptionScreen(originalTransactionId: id)
                default: nil
                }
            })
    }

    /// Both stores' notifications, or one store's; with `purchase`, those about one original transaction.
    static func notifications(purchase: String? = nil, store: Marketplace? = nil) -> ListScreen<NotificationRecord> {
        ListScreen(
            QueueListings.notifications(purchase: purchase, store: store),
            fetch: { try await $0.store.notifications.list(purchase: purchase, store: store, limit: 500) },
            open: { NotificationScreen(id: $0.id) })
    }

    /// Every event the game was sent about one order (N on an order's screen).
    static func events(order: String) -> ListScreen<GameEvent> {
        ListScreen(QueueListings.undeliveredEvents(order: order), fetch: { try await $0.store.outbox.events(orderId: order).map(\.event) })
    }

    static func jobs() -> ListScreen<Job> {
        ListScreen(
            QueueListings.jobs(),
            fetch: { try await $0.store.jobs.list(limit: 500) },
            open: { job in job.kind == .verify ? OrderDetailScreen(orderId: job.subject) : nil },
            action: (
                KeyBinding(.character("R"), action: "requeue dead"),
                { job, session in
                    guard job.deadAt != nil else { return .flash("job \(job.id) is not dead; it runs on its own", isError: true) }
                    let (store, actor) = (session.store, session.actor)
                    return .dialog(
                        Dialog(
                            title: "Requeue job \(job.id)",
                            lines: [
                                "\(job.kind.rawValue) \(job.subject) failed \(job.attempts) times: \(job.lastError ?? "no error kept")",
                                "It runs again now, its tries counted from zero. The requeue is audited.",
                            ],
                            fields: [.reason], confirm: "requeue"
                        ) { values in
                            let requeued = try await store.jobs.requeue(id: job.id, by: actor, reason: values[.reason])
                            return "job \(requeued.id) is due now"
                        })
                }
            ))
    }

    static func undelivered() -> ListScreen<GameEvent> {
        ListScreen(
            QueueListings.undeliveredEvents(),
            fetch: { try await $0.store.outbox.unconfirmed(limit: 500) },
            open: { event in event.orderId.map { OrderDetailScreen(orderId: $0) } },
            action: (
                KeyBinding(.character("R"), action: "resend"),
                { event, session in
                    let (store, actor) = (session.store, session.actor)
                    return .dialog(
                        Dialog(
                            title: "Resend \(event.eventId)",
                            lines: [
                                "\(event.summary)", "\(event.deliveryText)",
                                "The worker sends it now; the game applies it once by its id. The resend is audited.",
                            ],
                            fields: [.reason], confirm: "resend"
                        ) { values in
                            let resent = try await store.outbox.resend(event.eventId, by: actor, reason: values[.reason])
                            return "\(resent.eventId) is owed to the game again"
                        })
                }
            ),
            bulkAction: (
                KeyBinding(.character("A"), action: "resend all dead"),
                { events, session in
                    let dead = events.filter { $0.deadAt != nil }.count
                    guard dead > 0 else { return .flash("no dead event: the worker is still trying every one on its own", isError: false) }
                    return .dialog(
                        Dialog(
                            title: "Resend every dead event",
                            lines: [
                                "\(dead)\(events.count >= 500 ? " or more" : "") events gave up after their retries. Each is sent once more now, and dead again if the game still fails.",
                                "The game applies each once by its id. Every resend is audited.",
                            ],
                            fields: [.reason], confirm: "resend all"
                        ) { values in
                            EventActions.resendAllDead(
                                try await session.store.outbox.resendDead(by: session.actor, reason: values[.reason]), store: session.store)
                        })
                }
            ))
    }
}
