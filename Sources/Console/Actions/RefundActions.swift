import OrderDomain
import OrderStore
import Presentation

/// Answering one of Apple's refund requests from the console: the same answer
/// `iapdesk refunds answer` sends, started from what the evidence suggests.
enum RefundActions {
    static let binding = KeyBinding(.character("a"), action: "answer Apple")

    static func answer(_ request: RefundRequest, session: ConsoleSession) -> ScreenAction {
        let now = session.clock()
        guard request.isOpen(at: now) else {
            return .flash(
                request.sent == nil ? "Apple no longer waits: the deadline passed" : "already answered: \(request.sent?.answer?.summary ?? "")", isError: true)
        }
        guard let apple = session.appleActions else {
            return .flash("answering Apple needs the App Store Server API key ([apple] key_file, key_id, issuer_id)", isError: true)
        }
        let (store, actor, id) = (session.store, session.actor, request.notification.id)
        let deliveries = RefundAnswerWords.deliveries.map(\.word).joined(separator: ", ")
        let preferences = (RefundAnswerWords.preferences.map(\.word) + [RefundAnswerWords.none]).joined(separator: ", ")
        let consent = DialogField("Customer consented (yes/no)", prefilled: RefundAnswerWords.suggestedConsent(request))
        let delivery = DialogField("Delivery", prefilled: RefundAnswerWords.suggestedDelivery(request))
        let consumed = DialogField("Consumed % (0-100 or unknown)", prefilled: RefundAnswerWords.suggestedConsumed(request))
        let preference = DialogField("Refund preference", prefilled: RefundAnswerWords.none)
        let sample = DialogField("Sample content given (yes/no)", prefilled: "no")
        return .dialog(
            Dialog(
                title: "Answer refund request #\(id)",
                lines: [
                    "\(request.transactionId ?? "?") \(request.order.map { "(order \($0.orderId), \($0.accountId))" } ?? "(no order)"): \(RefundRequestPresentation.countdown(request.deadline, now: now)).",
                    "Apple takes the answer only if the customer consented to share consumption data. Delivery: \(deliveries). Preference: \(preferences).",
                    "Sent once; Apple's answer or refusal is recorded and audited.",
                ],
                fields: [consent, delivery, consumed, preference, sample, .reason],
                confirm: "send to Apple"
            ) { values in
                let answer = try RefundAnswerWords.answer(
                    consented: try yes(values[consent], "customer consented"), delivery: values[delivery], consumed: values[consumed],
                    prefer: values[preference], sampleContent: try yes(values[sample], "sample content given"))
                let sent = try await store.refunds.answer(notificationId: id, answer: answer, by: actor, reason: values[.reason]) {
                    await apple.consumptionRefusal(transactionId: $0, environment: $1, answer: $2)
                }
                guard sent.outcome == .sent else {
                    throw RefundAnswerWords.Invalid(description: "Apple refused the answer: \(sent.appleError ?? "no reason given")")
                }
                return "sent to Apple: \(answer.summary)"
            })
    }

    private static func yes(_ text: String, _ field: String) throws -> Bool {
        switch text.lowercased() {
        case "yes", "y": true
        case "no", "n": false
        default: throw RefundAnswerWords.Invalid(description: "\(field): yes or no")
        }
    }
}
