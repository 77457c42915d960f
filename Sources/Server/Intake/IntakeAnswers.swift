import OrderDomain
import OrderStore
import Presentation

/// The intake's answers as `openapi.yaml` describes them: one Encodable type each, with its
/// keys spelled as the document spells them; absent values are left out.
enum IntakeAnswers {
    /// An order (`Order` in the document), with the submission a receipt made.
    struct OrderAnswer: Encodable {
        var orderId: String
        var accountId: String
        var productId: String
        var app: String?
        var store: Marketplace
        var quantity: Int
        var state: OrderState
        var transactionId: String?
        var environment: AppleEnvironment?
        var lastError: String?
        var reasonCode: String?
        var nextRetryAt: Millis?
        var updatedAt: Millis
        var submissionId: Int64?

        init(_ order: Order, submissionId: Int64? = nil) {
            orderId = order.orderId
            accountId = order.accountId
            productId = order.productId
            app = order.app
            store = order.marketplace
            quantity = order.quantity
            state = order.state
            transactionId = order.transactionId
            environment = order.environment
            lastError = ReasonWords.lastError(order)
            reasonCode = order.reason?.code
            nextRetryAt = order.nextRetryAt
            updatedAt = order.stateChangedAt
            self.submissionId = submissionId
        }

        enum CodingKeys: String, CodingKey {
            case app, store, quantity, state, environment
            case orderId = "order_id", accountId = "account_id", productId = "product_id", transactionId = "transaction_id"
            case lastError = "last_error", reasonCode = "reason_code", nextRetryAt = "next_retry_at", updatedAt = "updated_at", submissionId = "submission_id"
        }
    }

    /// What the game reported of a purchase's use.
    struct ConsumptionAnswer: Encodable {
        var orderId: String
        var consumedPercent: Double
        var playTime: ConsumptionReport.PlayTime?
        var customerConsented: Bool
        var reportedAt: Millis

        init(_ report: ConsumptionReport) {
            orderId = report.orderId
            consumedPercent = Double(report.consumptionPercentage) / 1000
            playTime = report.playTime
            customerConsented = report.customerConsented
            reportedAt = report.reportedAt
        }

        enum CodingKeys: String, CodingKey {
            case orderId = "order_id", consumedPercent = "consumed_percent", playTime = "play_time"
            case customerConsented = "customer_consented", reportedAt = "reported_at"
        }
    }

    /// An account's subscriptions (R8's owner) and lasting purchases.
    struct EntitlementsAnswer: Encodable {
        struct Subscription: Encodable {
            var originalTransactionId: String
            var productId: String
            var status: SubscriptionStatus
            var autoRenew: Bool
            var expiresAt: Millis?
            var ownerSince: Millis

            enum CodingKeys: String, CodingKey {
                case status
                case originalTransactionId = "original_transaction_id", productId = "product_id", autoRenew = "auto_renew"
                case expiresAt = "expires_at", ownerSince = "owner_since"
            }
        }
        struct Purchase: Encodable {
            var orderId: String
            var productId: String
            var type: ProductType
            var grantedAt: Millis

            enum CodingKeys: String, CodingKey {
                case type
                case orderId = "order_id", productId = "product_id", grantedAt = "granted_at"
            }
        }
        var accountId: String
        var subscriptions: [Subscription]
        var purchases: [Purchase]

        init(_ e: Entitlements) {
            accountId = e.accountId
            subscriptions = e.subscriptions.map {
                Subscription(
                    originalTransactionId: $0.originalTransactionId, productId: $0.productId, status: $0.status, autoRenew: $0.autoRenew,
                    expiresAt: $0.expiresAt, ownerSince: $0.ownerSince)
            }
            purchases = e.purchases.map { Purchase(orderId: $0.orderId, productId: $0.productId, type: $0.type, grantedAt: $0.grantedAt) }
        }

        enum CodingKeys: String, CodingKey {
            case subscriptions, purchases
            case accountId = "account_id"
        }
    }
}
