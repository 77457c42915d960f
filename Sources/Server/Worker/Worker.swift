import AppStore
import Foundation
import GooglePlay
import Logging
import OrderDomain
import OrderStore
import Presentation

/// The worker: takes due jobs from the store under a lease and runs them, so every paid
/// order is asked about until Apple answers (S1, S2: what a game server's scheduled task
/// does). Several workers, in one process or on several machines, share one store's
/// queue; a job run twice can still deliver only once (R11 is a database constraint).
public struct Worker: Sendable {
    public struct Settings: Sendable {
        /// Jobs taken per claim.
        public var batch = 32
        /// Jobs run at once (calls to Apple in flight).
        public var concurrency = 16
        /// Of those, jobs whose work stays in the store (`WorkerSlots`): one per core.
        public var storeOnlyConcurrency = max(2, ProcessInfo.processInfo.activeProcessorCount)
        /// How long a claimed job is this worker's; longer than any Apple call with its retries.
        public var lease: Millis = .seconds(120)
        /// How long to sleep when nothing is due. Jobs committed in this process wake the
        /// worker at once (`OrderStore.jobsDue`), and on PostgreSQL so do those of other
        /// processes (`OrderStore.listenForJobs`); the poll is the fallback.
        public var idle: Duration = .milliseconds(50)
        /// Store-only work waits up to this long, before each job, for a moment when no
        /// request this process answers is under way (``RequestsInFlight``): acknowledgements
        /// first on shared cores. While requests come without a gap, each store-only slot
        /// applies one job this often and the rest waits for the gap; zero: never waits.
        /// (Measured on this project's 2-core machine, 8 clients' acknowledgement p99: 8.2–10.2
        /// ms with 1 s, 10.4–15.1 ms without.)
        public var yieldToRequests: Duration = .seconds(1)
        /// Only these kinds (a process that only pushes events, a benchmark); nil: all.
        public var kinds: [JobKind]?
        /// Verify jobs created before this are left to operators: the demo verifies what
        /// arrives live while its seeded stuck queue stays the rehearsal. Nil: all.
        public var verifyCreatedSince: Millis?
        /// While Apple is down (OutageRule): one job at a time, this far apart, until one succeeds.
        public var outagePause: Duration = .seconds(5)
        /// The Get Notification History sweep's schedule.
        public var historyInterval: Millis = .minutes(10)
        public var historyFirstLookBack: Millis = .hours(72)
        /// Polling subscriptions near their expiry (seed 003), swept this often.
        public var expiryPolling = ExpiryPolling()
        public var expirySweepInterval: Millis = .minutes(10)
        /// The studio's refund policy (`[refunds]`); nil leaves every refund request to support.
        public var refundPolicy: RefundPolicy?
        public var refundPolicyInterval: Millis = .minutes(1)
        /// Google Play's voided purchases read this often (the backstop for lost refund
        /// notifications; Google allows a few thousand reads a day).
        public var voidedInterval: Millis = .minutes(10)

        public init() {}
    }

    let store: OrderStore
    /// Asks the store a submission was made in: Apple, or Google Play.
    let verifier: any ReceiptVerifier
    /// The Server API client for Apple's actions (the refund policy's answers); nil without its key.
    let apple: ServerAPIClient?
    /// Google Play's client and verifier; nil when Google Play is not configured.
    let play: PlayVerifier?
    /// When each package's voided purchases were last read, this process.
    let voidedCursor = VoidedCursor()
    /// Nil without Server API credentials: there is no history to sweep then.
    let sweep: HistorySweep?
    /// Nil without a game webhook: games pull their events then.
    let sender: EventSender?
    /// This worker's name in leases: host, process and a random part, unique per run.
    public let owner: String
    /// Ends this worker could not record yet; recorded when the store answers again.
    let unfinished = UnfinishedJobs()
    let settings: Settings
    let metrics: ServeMetrics
    let logger: Logger
    /// The requests of the HTTP server in this process, if any; store-only work yields to them.
    let requests: RequestsInFlight?

    public init(
        store: OrderStore, verifier: AppleVerifier?, googlePlay: PlayClient? = nil, game: GameWebhook? = nil, settings: Settings = Settings(),
        metrics: ServeMetrics = ServeMetrics(), logger: Logger = Logger(label: "iapdesk.worker"), yieldingTo requests: RequestsInFlight? = nil
    ) {
        self.store = store
        self.requests = requests
        self.metrics = metrics
        play = googlePlay.map(PlayVerifier.init(client:))
        self.verifier = MarketplaceVerifier(apple: verifier, googlePlay: play)
        apple = verifier?.serverAPI
        sweep = verifier.flatMap { verifier in verifier.serverAPI.map { (verifier, $0) } }.map { verifier, client in
            HistorySweep(
                store: store, client: client,
                decoder: NotificationDecoder(trust: verifier.settings.trust, bundleIds: store.settings.apps),
                settings: HistorySweep.Settings(interval: settings.historyInterval, firstLookBack: settings.historyFirstLookBack))
        }
        sender = game.map { EventSender(store: store, webhook: $0, http: .shared, metrics: metrics) }
        self.settings = settings
        self.logger = logger
        owner = LeaseOwner.new()
    }

    /// Schedules the sweeps at once: what Apple failed to deliver while no worker ran is
    /// recovered first, and subscriptions near their expiry are polled (those of its kinds).
    public func scheduleSweeps() async throws {
        if allowed.contains(.expirySweep) { try await store.schedule(.expirySweep, dueAt: .now()) }
        if sender != nil, allowed.contains(.sendEvents) { try await store.outbox.scheduleUnsent() }
        if let play, allowed.contains(.playVoidedSweep) {
            for package in play.client.settings.packageNames { try await store.schedule(.playVoidedSweep(packageName: package), dueAt: .now()) }
        }
        if settings.refundPolicy != nil, apple != nil, allowed.contains(.refundPolicy) {
            try await store.schedule(.refundPolicy, dueAt: .now())
        }
        guard sweep != nil, allowed.contains(.notificationHistory) else { return }
        for environment in AppleEnvironment.allCases { try await store.schedule(.notificationHistory(environment), dueAt: .now()) }
    }

    private var allowed: [JobKind] { settings.kinds ?? JobKind.allCases }
    private var withoutApple: [JobKind] { allowed.filter { !$0.callsApple } }
    private var askingApple: [JobKind] { allowed.filter(\.callsApple) }

    /// Runs until cancelled; then gives its leases back, so other workers need not wait them out.
    /// A database that cannot be reached fails a round, which is logged, and the next round
    /// tries again: the worker resumes by itself when the database is back.
    public func work() async {
        // The consoles' header counts live workers by this, every 5 s however long a round runs.
        let heartbeat = Task { [store, owner] in
            while !Task.isCancelled {
                try? await store.heartbeat(worker: owner)
                try? await Task.sleep(for: .seconds(5))
            }
        }
        // On PostgreSQL, jobs other processes commit wake this worker as this process's own do.
        let listener = Task { [store, logger] in await store.listenForJobs(logger: logger) }
        var wasDown = false
        var lastProbe = ContinuousClock.now - settings.outagePause
        var apple = AppleOutageWatch()
        while !Task.isCancelled {
            // Taken before the claim: a job committed while this round runs ends the idle wait at once.
            let mark = store.jobsDue.mark
            let ran: Int
            if await !unfinished.isEmpty { await unfinished.record(in: store, owner: owner) }
            do {
                // Apple down: probe with one verification instead of hammering with the whole
                // batch; notifications need no Apple and go on at full speed.
                let down = try await apple.isDown(store)
                if down != wasDown {
                    logger.warning(
                        down ? "Apple is failing: one verification every \(settings.outagePause) until one succeeds" : "Apple answers again: full speed")
                    wasDown = down
                }
                if down {
                    // The round ends in time for the next probe, however much else is due.
                    var both = try await runOnce(kinds: withoutApple, topUpUntil: lastProbe + settings.outagePause)
                    if ContinuousClock.now - lastProbe >= settings.outagePause {
                        lastProbe = .now
                        both += try await runOnce(limit: 1, kinds: askingApple)
                    }
                    ran = both
                } else {
                    ran = try await runOnce(kinds: settings.kinds)
                }
            } catch is CancellationError {
                break  // stopping: not a failure
            } catch {
                logger.error("claiming jobs failed", metadata: ["error": "\(ErrorWords.what(error))"])
                ran = 0
                // The store is unreachable: try again a little later, not in a tight loop.
                if store.health.current != nil { try? await Task.sleep(for: settings.outagePause / 5) }
            }
            if ran == 0 { await store.jobsDue.wait(since: mark, upTo: settings.idle) }
        }
        listener.cancel()
        heartbeat.cancel()
        await listener.value
        await heartbeat.value  // so it cannot record this worker again after it is forgotten
        // In a task of its own: this one is cancelled, and the store refuses statements then.
        let release = Task { [store, owner] in
            try await store.jobs.releaseLeases(owner: owner)
            try await store.forgetWorker(owner)
        }
        do {
            try await release.value
        } catch {
            logger.error("releasing leases failed; they expire on their own", metadata: ["error": "\(ErrorWords.what(error))"])
        }
    }

    /// One round: claims the due jobs and runs them, `concurrency` at a time, of which at most
    /// `storeOnlyConcurrency` stay in the store (`WorkerSlots`). Returns how many ran.
    ///
    /// Slots a finished job frees take the next due jobs at once (claimed a few at a time),
    /// so a slow call (a 30 s time-out) holds only its own slot, and the round goes on until
    /// nothing is due. Calls to Apple start paced (`CallPacer`), so their answers do not come
    /// back together and queue for the store. A round that asks Apple stops topping up once
    /// Apple is failing (OutageRule, looked at four times a second), so the loop can go on
    /// one probe at a time; a probe (`limit`) never tops up, and a stopping worker drains.
    /// `topUpUntil` ends a round at a time the caller has something else to do (the probe).
    /// Store-only jobs start in a gap between the requests this process answers (`yieldToRequests`).
    @discardableResult
    public func runOnce(limit: Int? = nil, kinds: [JobKind]? = nil, topUpUntil deadline: ContinuousClock.Instant? = nil) async throws -> Int {
        let jobs = try await claim(limit ?? settings.batch, kinds: kinds)
        guard !jobs.isEmpty else { return 0 }
        var slots = WorkerSlots(concurrency: settings.concurrency, storeOnly: settings.storeOnlyConcurrency)
        let asksApple = (kinds ?? JobKind.allCases).contains(where: \.callsApple)
        var apple = AppleOutageWatch(askedNow: true)
        var ran = jobs.count
        await withTaskGroup(of: (kind: JobKind, took: Duration?).self) { group in
            var pending = jobs[...]
            var toppingUp = limit == nil
            // Calls to Apple start a `CallPacer` spacing apart: started together they would
            // come back together and queue for the store. Other jobs start at once.
            var pacer = CallPacer(slots: slots.concurrency)
            while true {
                while let job = slots.start(from: &pending) {
                    let at = job.kind.callsApple ? pacer.nextStart() : nil
                    group.addTask {
                        guard let at else {
                            if job.kind.staysInStore, let requests = self.requests { await requests.quiet(upTo: self.settings.yieldToRequests) }
                            await self.run(job)
                            return (job.kind, nil)
                        }
                        try? await Task.sleep(until: at, clock: .continuous)
                        let started = ContinuousClock.now
                        await self.run(job)
                        return (job.kind, .now - started)
                    }
                }
                guard slots.running > 0, let finished = await group.next() else { break }
                slots.finished(finished.kind)
                if let took = finished.took { pacer.observe(took) }
                // Claimed once a few slots are free, not per slot: each claim is a write.
                let free = slots.free
                guard toppingUp, pending.isEmpty, free >= max(1, slots.concurrency / 8) else { continue }
                // Stopping, or the caller's time: drain.
                if Task.isCancelled || deadline.map({ ContinuousClock.now >= $0 }) == true {
                    toppingUp = false
                    continue
                }
                do {
                    if asksApple, try await apple.isDown(store) {
                        toppingUp = false
                        continue
                    }
                    let more = try await claim(min(free, settings.batch), kinds: kinds)
                    pending.append(contentsOf: more)
                    ran += more.count
                    if more.isEmpty { toppingUp = false }
                } catch {
                    logger.error("claiming jobs failed", metadata: ["error": "\(ErrorWords.what(error))"])
                    toppingUp = false
                }
            }
        }
        return ran
    }

    private func claim(_ limit: Int, kinds: [JobKind]?) async throws -> [Job] {
        try await store.jobs.claim(
            owner: owner, limit: limit, lease: settings.lease, kinds: kinds, verifyCreatedSince: settings.verifyCreatedSince)
    }

    /// A job in flight is finished even when the worker is told to stop (SIGTERM): it runs
    /// in a task of its own, which the stop does not cancel, so its answer is recorded.
    private func run(_ job: Job) async {
        await Task { await self.runToEnd(job) }.value
    }

    private func runToEnd(_ job: Job) async {
        let result: JobQueue.Result
        /// Whether the job's own last commit finished it (its fence matched); nil when it is
        /// finished here after the work.
        var finishedInWork: Bool?
        do {
            switch job.work {
            case .verify(let orderId):
                let outcome = try await store.apple.verifyIfOwed(orderId: orderId, using: verifier)
                result = outcome?.order.nextRetryAt.map { .again(at: $0) } ?? .done
                if let outcome {
                    metrics.verification(outcome: outcome.classification.outcome.rawValue)
                    logger.info(
                        "verified",
                        metadata: [
                            "order": "\(orderId)", "state": "\(outcome.order.state.rawValue)", "outcome": "\(outcome.classification.outcome.rawValue)",
                        ])
                }
            case .notificationHistory(let environment):
                guard let sweep else {
                    result = .done
                    break
                }
                let (next, recovered) = try await sweep.run(environment)
                result = .again(at: next)
                logger.info("notification history swept", metadata: ["environment": "\(environment.rawValue)", "recovered": "\(recovered)"])
            case .refundPolicy:
                guard let policy = settings.refundPolicy, let client = apple else {
                    result = .done
                    break
                }
                let answered = try await store.refunds.applyPolicy(policy) {
                    await client.consumptionRefusal(transactionId: $0, environment: $1, answer: $2)
                }
                result = .again(at: .now() + settings.refundPolicyInterval)
                if !answered.isEmpty { logger.info("refund requests answered by the policy", metadata: ["count": "\(answered.count)"]) }
            case .finishTransaction(let transactionId):
                // Without the Server API key Apple cannot be told; nothing is owed then.
                guard let client = apple else {
                    result = .done
                    break
                }
                switch try await store.apple.finish(transactionId: transactionId, tell: { await client.finishRefusal(transactionId: $0, environment: $1) }) {
                case .failed(let why): result = .failed(why)
                case .finished, .alreadyFinished, .notDelivered: result = .done
                }
            case .expirySweep:
                let owed = try await store.subscriptions.scheduleExpiryChecks(settings.expiryPolling)
                // A sweep that hit its limit left some behind: it comes back at once.
                result = .again(at: .now() + (owed >= settings.expiryPolling.perSweep ? .seconds(1) : settings.expirySweepInterval))
                if owed > 0 { logger.info("subscriptions near expiry to poll", metadata: ["count": "\(owed)"]) }
            case .subscriptionCheck(let otid):
                let outcome = try await store.subscriptions.check(otid, using: verifier)
                if let outcome { metrics.verification(outcome: outcome.classification.outcome.rawValue) }
                switch outcome?.classification {
                case .retryable(let reason)?, .configuration(let reason)?:
                    // Apple could not answer: the job backs off and is tried again.
                    result = .failed(ReasonWords.sentence(reason))
                default:
                    result = .done
                }
            case .sendEvents(let account):
                // Without a webhook the game pulls; nothing to push.
                result = try await sender?.send(account: account) ?? .done
            case .playRefresh(let token):
                result = try await refreshPlay(token)
            case .playAcknowledge(let token):
                guard let play else {
                    result = .failed(ReasonWords.sentence(Why(.storeNotConfigured(.googlePlay))))
                    break
                }
                switch try await store.googlePlay.acknowledge(purchaseToken: token, tell: { await play.client.acknowledgeRefusal($0) }) {
                case .failed(let why): result = .failed(why)
                case .acknowledged, .alreadyDone, .notDelivered: result = .done
                }
            case .playVoidedSweep(let package):
                result = try await sweepVoided(package)
            case .applyNotifications(let key):
                let (applied, finished) = try await store.notifications.apply(key: key, finishing: JobLease(job: job, owner: owner))
                result = .done
                finishedInWork = finished
                logger.info("notifications applied", metadata: ["purchase": "\(key)", "count": "\(applied)"])
            case nil:
                // Written by hand or by a version that meant something else: an operator looks.
                result = .failed("a \(job.kind.rawValue) job cannot be about \(job.subject)")
            }
        } catch StoreError.unavailable(let why) {
            // The store, not the job, failed (a restart, a full disk): no attempt is counted
            // and no backoff grows; the job is owed again in a moment.
            result = .again(at: .now() + .seconds(1))
            logger.warning("job interrupted: the order store is unreachable", metadata: ["job": "\(job.id)", "kind": "\(job.kind.rawValue)", "why": "\(why)"])
        } catch {
            result = .failed(ErrorWords.what(error))
            logger.warning("job failed", metadata: ["job": "\(job.id)", "kind": "\(job.kind.rawValue)", "error": "\(ErrorWords.what(error))"])
        }
        do {
            let finished: Bool
            if let finishedInWork {
                finished = finishedInWork
            } else {
                finished = try await store.jobs.finish(job, owner: owner, result: result)
            }
            if !finished {
                logger.warning("job finished after its lease passed to another worker", metadata: ["job": "\(job.id)"])
            }
        } catch {
            logger.error(
                "recording a job's end failed; recorded when the store answers again",
                metadata: ["job": "\(job.id)", "error": "\(ErrorWords.what(error))"])
            await unfinished.add(job, result)
        }
    }
}
