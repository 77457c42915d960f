import Foundation

/// A decision's reason: its code and the particulars that make it this order's. Both are
/// facts; Presentation says them in words (`ReasonWords.sentence`).
public struct Why: Sendable, Equatable, Codable {
    public var reason: OrderReason
    public var particulars: ReasonParticulars

    public init(_ reason: OrderReason, _ particulars: ReasonParticulars = ReasonParticulars()) {
        self.reason = reason
        self.particulars = particulars
    }
}

extension Why {
    /// The same reason, said of the hand delivery `orderId` Apple's answer was to confirm.
    package func ofHandDelivery(_ orderId: String) -> Why {
        var why = self
        why.particulars.handDelivery = orderId
        return why
    }
}

/// The facts beside a reason's code: what the store said in its own words, who holds the
/// purchase, when it was cancelled, who acted. Kept with the order (its `reason_details`, as
/// JSON) and with the verification attempt's verdict; no field is a sentence of ours.
public struct ReasonParticulars: Sendable, Equatable, Codable {
    /// The store's or the connection's own message, as received (Google's error text, a
    /// time-out).
    public var message: String?
    /// An HTTP status the code does not carry.
    public var http: Int?
    /// The transaction refunded or revoked.
    public var transactionId: String?
    /// When the store says the purchase was cancelled.
    public var cancelledAt: Millis?
    /// R5: the check that failed, with what it saw.
    public var check: ReceiptCheck?
    /// R7: the order that holds the purchase.
    public var holder: PurchaseHolder?
    /// R8: the rule's decision.
    public var ownership: OwnershipRule.Decision?
    /// The operator who acted, and the reason they gave.
    public var actor: String?
    public var note: String?
    /// The order delivered by hand that Apple's answer was asked to confirm (R11).
    public var handDelivery: String?
    /// What an order or a verdict kept before particulars were typed, in words.
    public var words: String?

    public init(
        message: String? = nil, http: Int? = nil, transactionId: String? = nil, cancelledAt: Millis? = nil, check: ReceiptCheck? = nil,
        holder: PurchaseHolder? = nil, ownership: OwnershipRule.Decision? = nil, actor: String? = nil, note: String? = nil,
        handDelivery: String? = nil, words: String? = nil
    ) {
        self.message = message
        self.http = http
        self.transactionId = transactionId
        self.cancelledAt = cancelledAt
        self.check = check
        self.holder = holder
        self.ownership = ownership
        self.actor = actor
        self.note = note
        self.handDelivery = handDelivery
        self.words = words
    }
}

extension ReasonParticulars: StoredJSON {
    /// The particulars a `reason_details` column holds, or, for an order written before they
    /// were typed, its `last_error` words; nil when it holds neither.
    package init?(stored json: String?, words: String?, of record: String) throws {
        if json == "{}" {
            // Most reasons need no particulars (an Apple status says it all): no decoder for those.
            self.init()
        } else if let json {
            self = try ReasonParticulars(json: json, of: record)
        } else if let words {
            self.init(words: words)
        } else {
            return nil
        }
    }
}

extension Why: StoredJSON {
    /// The reason a `why` column holds, or, for a row written before reasons were typed, its
    /// words (as an unclassified reason); nil when it holds neither.
    package init?(stored json: String?, words: String?, of record: String) throws {
        if let json {
            self = try Why(json: json, of: record)
        } else if let words {
            self.init(.unclassified, ReasonParticulars(words: words))
        } else {
            return nil
        }
    }
}

/// R7: the order a purchase was claimed by first, and the purchase's key (`tid:…`, `otid:…`).
public struct PurchaseHolder: Sendable, Equatable, Codable {
    public var order: String
    public var account: String
    public var key: String

    public init(order: String, account: String, key: String) {
        self.order = order
        self.account = account
        self.key = key
    }
}

extension Order {
    /// Sets the order's reason and its particulars together; nil clears both.
    package mutating func explain(_ why: Why?) {
        reason = why?.reason
        particulars = why?.particulars
    }

    /// The order's reason with its particulars; nil when it has none.
    public var why: Why? { reason.map { Why($0, particulars ?? ReasonParticulars()) } }
}
