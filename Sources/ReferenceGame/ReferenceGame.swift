import Foundation

/// A small reference game: what a studio's game server does with iapdesk's events. It
/// checks each webhook's signature, applies each event once by its id to the players'
/// balances and subscriptions, and answers 2xx only once the event is applied — so a
/// lost answer means a resend, and the resend changes nothing. Its fault switch plays a
/// game server that is down, slow, failing, or checking signatures with the wrong secret.
public actor ReferenceGame {
    public enum Fault: String, Sendable, CaseIterable {
        case none
        /// 503 to everything.
        case down
        /// Answers after two seconds.
        case slow
        /// Applies nothing and answers 500.
        case error500 = "500"
        /// Checks signatures with a wrong secret: every webhook is refused (401).
        case wrongSecret = "wrong-secret"
        /// Applies, and answers 200 with a 64 KB page (a framework's default HTML, a debug dump).
        case verbose
    }

    public var fault: Fault = .none
    /// Player → product → quantity held (consumables add up; a take subtracts).
    public private(set) var balances: [String: [String: Int]] = [:]
    /// Player → subscription product → paid until (ms since 1970).
    public private(set) var subscriptions: [String: [String: Int64]] = [:]
    /// Players whose access ended: a parent withdrew consent for the app.
    public private(set) var accessEnded: Set<String> = []
    /// Event ids in the order they were applied.
    public private(set) var applied: [String] = []
    private var appliedIds: Set<String> = []
    /// Deliveries of an event already applied (retries, resends): answered 200, changed nothing.
    public private(set) var duplicates = 0
    /// Webhooks refused for their signature.
    public private(set) var refused = 0
    let secret: String

    public init(secret: String) {
        self.secret = secret
    }

    public func setFault(_ fault: Fault) { self.fault = fault }

    /// Players whose every event the game fails the first time it comes (500, nothing
    /// applied), and applies when it comes again: the demo's "granted, but the game never
    /// got it" to practise a resend on.
    public private(set) var failFirstTryFor: Set<String> = []
    private var triedOnce: Set<String> = []

    public func failFirstTry(for accounts: Set<String>) { failFirstTryFor = accounts }

    /// One webhook: (HTTP status, short answer).
    public func receive(body: Data, signature: String?, now: Date = Date()) async -> (status: Int, answer: String) {
        switch fault {
        case .down: return (503, "game down")
        case .error500: return (500, "game error")
        case .slow, .none, .wrongSecret, .verbose: break
        }
        do {
            try SignatureCheck.verify(header: signature, body: body, secret: fault == .wrongSecret ? secret + "-wrong" : secret, now: now)
        } catch {
            refused += 1
            return (401, "signature: \(error)")
        }
        guard let event = try? JSONDecoder().decode(Event.self, from: body) else { return (400, "not an iapdesk event") }
        if failFirstTryFor.contains(event.effect.accountId), triedOnce.insert(event.id).inserted { return (500, "game error: try again") }
        let applied = apply(event)
        return (200, fault == .verbose ? applied + " " + String(repeating: "<p>debug</p>", count: 64 * 1024 / 12) : applied)
    }

    /// Pulled events go through the same idempotent apply.
    @discardableResult
    public func apply(_ event: Event) -> String {
        guard appliedIds.insert(event.id).inserted else {
            duplicates += 1
            return "duplicate \(event.id), already applied"
        }
        applied.append(event.id)
        let account = event.effect.accountId
        switch event.effect.op {
        case "none": return "recorded \(event.id): nothing to give"
        case "end_access":
            accessEnded.insert(account)
            subscriptions[account] = nil
            return "applied \(event.id): access ended"
        default: break
        }
        guard let product = event.effect.productId, let quantity = event.effect.quantity else { return "applied \(event.id): nothing to change" }
        let gives = event.effect.op == "give"
        if event.productType == "auto_renewable" {
            // A subscription is an entitlement until a time, not a count.
            subscriptions[account, default: [:]][product] = gives ? event.effect.until : nil
        } else {
            // A partial refund's quantity is the whole units of its share.
            balances[account, default: [:]][product, default: 0] += (gives ? 1 : -1) * quantity
        }
        return "applied \(event.id)"
    }

    public func balance(_ account: String, _ product: String) -> Int { balances[account]?[product] ?? 0 }

    /// What `account` holds, as JSON-ready values: counts, and subscriptions paid until (ms).
    public func holdings(of account: String) -> [String: [String: Int64]] {
        ["balances": (balances[account] ?? [:]).mapValues(Int64.init), "subscriptions": subscriptions[account] ?? [:]]
    }

    /// The fields of an event a game needs.
    public struct Event: Decodable, Sendable {
        public var id: String
        public var type: String
        public var productType: String?
        public var effect: Effect

        enum CodingKeys: String, CodingKey {
            case id, type, effect
            case productType = "product_type"
        }

        public struct Effect: Decodable, Sendable {
            public var op: String
            public var accountId: String
            /// Absent when the event is about the account, not a product (`end_access`).
            public var productId: String?
            public var quantity: Int?
            public var until: Int64?

            enum CodingKeys: String, CodingKey {
                case op, quantity, until
                case accountId = "account_id"
                case productId = "product_id"
            }
        }
    }
}
