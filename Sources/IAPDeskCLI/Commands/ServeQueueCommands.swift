import AppStore
import ArgumentParser
import OrderDomain
import OrderStore
import Presentation
import Server

/// `iapdesk jobs`: the worker's queue, and dead jobs brought back.
struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs", abstract: "The worker's job queue: due, leased and dead jobs; requeue a dead one.",
        subcommands: [List.self, Requeue.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Jobs, dead ones first (the default).")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Only dead jobs (retries exhausted).") var dead = false
        @Option(help: "At most this many rows.") var limit: Int = 50

        func run() async throws {
            let (status, jobs) = try await store.withStore { store, _ in
                (try await store.jobs.status(), try await store.jobs.list(deadOnly: dead, limit: limit))
            }
            print(
                "\(status.due) due" + (status.oldestDueAt.map { ", oldest due \(Output.age(.now() - $0)) ago" } ?? "")
                    + ", \(status.leased) leased, \(status.dead) dead")
            print(Output.table(QueueListings.jobs(), jobs, width: 60))
        }
    }

    struct Requeue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring a dead job back, due now (audited).")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The job's number, as jobs lists it.") var id: Int64
        @Option(help: "Why, for the audit log (a ticket, what was checked).") var reason: String

        func run() async throws {
            let job = try await store.withStore { store, _ in
                try await store.jobs.requeue(id: id, by: try await store.operators.actor(forUser: OperatorIdentity.current), reason: reason)
            }
            print("job \(job.id) (\(job.kind.rawValue) \(Output.safe(job.subject))) is due now")
        }
    }
}

/// `iapdesk notifications`: what Apple told us, its verdict, and what it did.
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "App Store Server Notifications received: list, show one decoded, replay one, or set beside Apple's own record of what it sent.",
        subcommands: [List.self, Show.self, Replay.self, Apple.self], defaultSubcommand: List.self)

    struct Apple: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "What Apple says it sent in a span (Get Notification History) and its tries, beside what serve received: 'Apple never told us' or 'we lost it'."
        )
        @OptionGroup var store: StoreOptions
        @Option(help: "From this day (2026-10-01, UTC) or instant; Apple keeps 180 days (30 in sandbox).") var since: Instant
        @Option(help: "Until this day or instant (default: now).") var until: Instant?
        @Option(help: "Only notifications about this transaction.") var transaction: String?
        @Flag(help: "Sandbox's history instead of production's.") var sandbox = false
        @Option(help: "At most this many pages of 20.") var pages: Int = 10
        @Option(help: "The app whose history to read, when the store serves several (default: its first).") var app: String?

        func run() async throws {
            let environment: AppleEnvironment = sandbox ? .sandbox : .production
            let app = app
            let records = try await store.withStore { store, configuration in
                try await AppleVerifier.using(try configuration.appStoreSettings()) { verifier in
                    guard let client = verifier.serverAPI else {
                        throw ValidationError("asking Apple needs the App Store Server API key ([apple] key_file, key_id, issuer_id)")
                    }
                    let asked = try store.servedApp(app)
                    return try await ActingApp.$bundleId.withValue(asked) {
                        try await AppleSendHistory.compare(
                            client: client, decoder: NotificationDecoder(trust: verifier.settings.trust, bundleIds: store.settings.apps), store: store,
                            from: since.millis, until: until?.millis ?? .now(), transactionId: transaction, environment: environment, pages: pages)
                    }
                }
            }
            print(Output.table(AppleSendPresentation.listing(), records, width: 60))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Newest first (the default).")
        @OptionGroup var store: StoreOptions
        @Option(help: "Only this outcome.") var outcome: NotificationOutcome?
        @Option(name: .customLong("store"), help: "Only one store's: apple or google.") var marketplace: Marketplace?
        @Option(help: "At most this many rows.") var limit: Int = 50

        func run() async throws {
            let records = try await store.withStore { store, _ in
                try await store.notifications.list(outcome: outcome, store: marketplace, limit: limit)
            }
            print(Output.table(QueueListings.notifications(), records, width: 60))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One notification: its verdict, decoded facts and what applying it did.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The notification's number, as notifications list shows it.") var id: Int64

        func run() async throws {
            let n = try await store.withStore { store, _ in try await store.notifications.record(id: id) }
            print(Output.keyValues(NotificationPresentation.fields(n).map { ($0.name, Output.safe($0.value)) }))
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Apply a stored, verified notification again (audited), e.g. after attaching its orphan.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The notification's number, as notifications list shows it.") var id: Int64
        @Option(help: "Why, for the audit log (a ticket, what was checked).") var reason: String

        func run() async throws {
            try await store.withStore { store, _ in
                try await store.notifications.replay(id: id, by: try await store.operators.actor(forUser: OperatorIdentity.current), reason: reason)
            }
            print("notification \(id) will be applied again by the worker of `iapdesk serve`")
        }
    }
}

/// `iapdesk events`: what the game was told, and resending what it missed.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events", abstract: "Events to the game: the ones not confirmed, one with every try, resend one or all dead.",
        subcommands: [List.self, Show.self, Resend.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Events the game has not confirmed, oldest first (the default).")
        @OptionGroup var store: StoreOptions
        @Option(help: "Only this order's events, confirmed or not.") var order: String?
        @Option(help: "At most this many rows.") var limit: Int = 50

        func run() async throws {
            let events = try await store.withStore { store, _ in
                if let order { return try await store.outbox.events(orderId: order).map(\.event) }
                return try await store.outbox.unconfirmed(limit: limit)
            }
            print(Output.table(QueueListings.undeliveredEvents(), events, width: 60))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One event (evt_… or its number): what the game should do and every try.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The event: evt_… or its number.") var id: String

        func run() async throws {
            let detail = try await store.withStore { store, _ in try await store.outbox.event(id) }
            print(Output.keyValues(detail.fields.map { ($0.name, Output.safe($0.value)) }))
        }
    }

    struct Resend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send an event again now (audited); the game applies it once by its id.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "evt_… or the event's number; omit with --all-dead.") var id: String?
        @Flag(help: "Every dead event.") var allDead = false
        @Option(help: "Why, for the audit log (a ticket, what was checked).") var reason: String

        func run() async throws {
            guard (id != nil) != allDead else { throw ValidationError("name one event, or --all-dead") }
            let resent = try await store.withStore { store, _ in
                let actor = try await store.operators.actor(forUser: OperatorIdentity.current)
                if let id { return [try await store.outbox.resend(id, by: actor, reason: reason)] }
                return try await store.outbox.resendDead(by: actor, reason: reason, limit: 100_000)
            }
            for event in resent { print("\(event.eventId) (\(event.type.rawValue), order \(Output.safe(event.orderId))) is owed to the game again") }
            if resent.isEmpty { print("no dead events") }
        }
    }
}
