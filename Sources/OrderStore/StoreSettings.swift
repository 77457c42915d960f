import OrderDomain

/// What the rules need to know about the app the store serves.
public struct StoreSettings: Sendable, Equatable {
    /// The app a product without one belongs to, and the one Apple is asked about when
    /// nothing names another: the configuration's first app (the store's, once open).
    public var bundleId: String
    /// Every app: before opening, the ones the configuration names (`bundleId` first; empty
    /// means just `bundleId`); once open, the ones the store serves (`iapdesk app add`).
    public var apps: [String] = []
    /// Google Play's packages: before opening, the ones the configuration names
    /// (`google_play.package_names`, recorded when missing); once open, the ones the store serves.
    public var playApps: [String] = []
    /// Whether the apps were configured (false: a default). A store remembers the apps it
    /// serves; a configuration naming none of them is refused, a default takes the store's.
    public var bundleIdConfigured = true
    /// R2: a production store flags sandbox purchases and keeps them apart in totals.
    public var isProduction: Bool
    /// How long a paid order may stay undelivered before it counts as stuck.
    public var stuckThreshold: Millis
    /// R5: allowed skew between our clock and Apple's purchase date.
    public var clockSkew: Millis
    /// R10 anchored: signs every audit entry this process writes; required once the
    /// store's log is keyed (`AuditKey`).
    public var auditKey: AuditKey?
    /// PostgreSQL: how many connections this process may open, each when all the open ones
    /// are busy (a console or a command rarely needs a second; `serve`'s worker does).
    public var postgresConnections: Int
    /// The longest a call waits for a free connection before it is told the store is
    /// unavailable; and, on PostgreSQL, the longest one statement or a connect may take.
    /// A request that cannot reach the store answers within this, never hangs.
    public var databaseDeadline: Duration

    public init(
        bundleId: String, isProduction: Bool = true, stuckThreshold: Millis = .minutes(5), clockSkew: Millis = ReceiptChecks.defaultClockSkew,
        auditKey: AuditKey? = nil, postgresConnections: Int = 8, databaseDeadline: Duration = .seconds(10)
    ) {
        self.databaseDeadline = databaseDeadline
        self.postgresConnections = postgresConnections
        self.bundleId = bundleId
        self.isProduction = isProduction
        self.stuckThreshold = stuckThreshold
        self.clockSkew = clockSkew
        self.auditKey = auditKey
    }
}

extension StoreSettings {
    /// The app a product belongs to: its own, else the store's first (R5 checks a receipt's
    /// bundle id against it; Apple is asked with that app's credentials).
    public func app(of product: Product?) -> String { product?.app ?? bundleId }

    /// The app a store's answer about `order` must name (R5): the package a Google Play
    /// purchase was submitted in, else its product's app.
    public func expectedApp(of order: Order, product: Product?) -> String {
        order.marketplace == .googlePlay ? order.app ?? bundleId : app(of: product)
    }
}
