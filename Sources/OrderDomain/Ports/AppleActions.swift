import Foundation

/// The actions Apple lets a studio take, as the store's operations call them. The App
/// Store Server API client does them (against Apple, or the simulator); the console holds
/// one without knowing the client.
public protocol AppleActions: Sendable {
    /// Send Consumption Information: nil when Apple took the answer, else its refusal in words.
    func consumptionRefusal(transactionId: String, environment: AppleEnvironment, answer: ConsumptionAnswer) async -> String?
    /// Extend a Subscription Renewal Date: Apple's new end, or its refusal in words.
    func extensionAnswer(originalTransactionId: String, days: Int, reasonCode: Int, requestId: String, environment: AppleEnvironment) async
        -> ExtensionAnswer
    /// Extend Subscription Renewal Dates for All Active Subscribers: nil when Apple took the
    /// request, else its refusal in words.
    func massExtensionRefusal(productId: String, days: Int, reasonCode: Int, requestId: String, environment: AppleEnvironment) async -> String?
    /// Get Status of Subscription Renewal Date Extensions.
    func massExtensionProgress(productId: String, requestId: String, environment: AppleEnvironment) async -> MassExtensionProgress
    /// Set App Account Token: nil when Apple took the token, else its refusal in words.
    func accountTokenRefusal(token: UUID, originalTransactionId: String, environment: AppleEnvironment) async -> String?
    /// Look Up Order ID: the verified transactions on Apple's invoice, Apple's "no such
    /// order" in `environment`, or why there is no answer (``Orders/findAppleOrder(_:asking:)``).
    func invoice(_ appleOrderId: String, environment: AppleEnvironment) async -> AppleOrderAnswer
}
