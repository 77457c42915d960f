import Foundation

/// An event as the game reads it (the OpenAPI document's `Event`): written once, in the
/// transaction that makes the change, as the JSON the outbox stores and sends; read back by
/// the same type where `serve` lists events. Snake-case keys; absent values left out.
public struct GameEventBody: Codable, Sendable, Equatable {
    /// Stable and unique: a game applies each event once by it.
    public var id: String
    /// Its place in commit order: set only where the game pulls events.
    public var cursor: Int64?
    public var type: GameEventType
    public var createdAt: Millis
    public var orderId: String?
    public var accountId: String
    public var productId: String?
    public var productType: ProductType?
    /// The app (bundle id) the order was placed in: a studio's games share one feed.
    public var app: String?
    /// The store it was paid in (`app_store`, `google_play`).
    public var store: Marketplace?
    public var quantity: Int?
    public var transactionId: String?
    public var originalTransactionId: String?
    public var environment: AppleEnvironment?
    public var grantKind: GrantKind?
    /// The operator's own words, for a grant or a revoke by hand.
    public var reason: String?
    /// Why it was taken back (`r9.refunded.apple`, `operator.revoked`), for `refunded` and `revoked`.
    public var reasonCode: OrderReason?
    /// `consent_rescinded`: the Apple Account's app transaction id.
    public var appTransactionId: String?
    /// How the purchase was bought, as Apple signed it: the offer redeemed, a commitment
    /// plan's payment. Nil when Apple named neither.
    public var terms: Terms?
    /// What the game does, in fields a program reads.
    public var effect: Effect
    /// The same in a sentence a person reads.
    public var summary: String

    // Keys spelled out rather than a key strategy: a strategy would rename the item names
    // inside `gives` too.
    package enum CodingKeys: String, CodingKey {
        case id, cursor, type, app, store, quantity, reason, environment, effect, summary, terms
        case createdAt = "created_at", orderId = "order_id", accountId = "account_id", productId = "product_id"
        case productType = "product_type", transactionId = "transaction_id", originalTransactionId = "original_transaction_id"
        case grantKind = "grant_kind", appTransactionId = "app_transaction_id", reasonCode = "reason_code"
    }

    public struct Effect: Codable, Sendable, Equatable {
        public enum Op: String, Codable, Sendable {
            case give, take
            /// A subscription period already over when the event was written: record it, give nothing.
            case none
            /// A parent withdrew consent for the app.
            case endAccess = "end_access"
        }
        public var op: Op
        /// Whose balance or entitlement changes (a subscription's owner under R8).
        public var accountId: String
        public var productId: String?
        public var quantity: Int?
        /// A subscription's period end.
        public var until: Millis?
        /// A partial refund (or its reversal): the share of the purchase, 0 to 1.
        public var share: Double?
        /// What one unit gives, as the catalogue says.
        public var gives: [String: Int]?

        enum CodingKeys: String, CodingKey {
            case op, quantity, until, share, gives
            case accountId = "account_id", productId = "product_id"
        }

        package init(
            op: Op, accountId: String, productId: String? = nil, quantity: Int? = nil, until: Millis? = nil, share: Double? = nil, gives: [String: Int]? = nil
        ) {
            self.op = op
            self.accountId = accountId
            self.productId = productId
            self.quantity = quantity
            self.until = until
            self.share = share
            self.gives = gives
        }
    }

    /// How a purchase was bought (``GameEventBody/terms``).
    public struct Terms: Codable, Sendable, Equatable {
        /// Apple's `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
        public var offerType: Int?
        public var offerId: String?
        /// `MONTHLY` (a commitment plan) or `BILLED_UPFRONT`.
        public var billingPlan: String?
        /// A commitment plan: payment `commitmentPayment` of `commitmentPayments`, committed
        /// until `commitmentEndsAt`.
        public var commitmentPayment: Int?
        public var commitmentPayments: Int?
        public var commitmentEndsAt: Millis?

        enum CodingKeys: String, CodingKey {
            case offerType = "offer_type", offerId = "offer_id", billingPlan = "billing_plan", commitmentPayment = "commitment_payment"
            case commitmentPayments = "commitment_payments", commitmentEndsAt = "commitment_ends_at"
        }

        /// The terms `t` was bought on; nil when Apple named none.
        init?(_ t: AppleTransaction) {
            guard t.offer != nil || t.billingPlan != nil || t.commitment != nil else { return nil }
            offerType = t.offer?.type
            offerId = t.offer?.identifier
            billingPlan = t.billingPlan
            commitmentPayment = t.commitment?.payment
            commitmentPayments = t.commitment?.payments
            commitmentEndsAt = t.commitment?.endsAt
        }
    }

    /// The stored form: sorted keys, so the bytes a webhook signs are the bytes stored.
    ///
    /// - Throws: `EncodingError` for a value JSON cannot hold (a share that is not a finite
    ///   number): the change that would owe the event fails with it, rather than the game
    ///   being sent `{}`.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// An event the store wrote; an error naming it when the stored text is not one.
    public init(stored payload: String, eventId: String) throws {
        do { self = try JSONDecoder().decode(Self.self, from: Data(payload.utf8)) } catch {
            throw StoreError.corrupt("event \(eventId) holds no event the store wrote: \(error)")
        }
    }

    package init(
        id: String, type: GameEventType, createdAt: Millis, accountId: String, effect: Effect, summary: String
    ) {
        self.id = id
        self.type = type
        self.createdAt = createdAt
        self.accountId = accountId
        self.effect = effect
        self.summary = summary
    }

    package init(
        id: String, cursor: Int64? = nil, type: GameEventType, createdAt: Millis, orderId: String? = nil, accountId: String, productId: String? = nil,
        productType: ProductType? = nil, app: String? = nil, store: Marketplace? = nil, quantity: Int? = nil, transactionId: String? = nil,
        originalTransactionId: String? = nil, environment: AppleEnvironment? = nil, grantKind: GrantKind? = nil, reason: String? = nil,
        appTransactionId: String? = nil, terms: Terms? = nil, effect: Effect, summary: String
    ) {
        self.id = id
        self.cursor = cursor
        self.type = type
        self.createdAt = createdAt
        self.orderId = orderId
        self.accountId = accountId
        self.productId = productId
        self.productType = productType
        self.app = app
        self.store = store
        self.quantity = quantity
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.environment = environment
        self.grantKind = grantKind
        self.reason = reason
        self.appTransactionId = appTransactionId
        self.terms = terms
        self.effect = effect
        self.summary = summary
    }
}
