import OrderDomain

/// How a purchase was bought and goes on, as Apple signs it: the offer it was bought with,
/// a commitment plan's payments, the renewal's terms (the product it renews to, grace,
/// billing retry, a price increase, the win-back offers a subscriber who left may take),
/// and whether Apple was told the purchase is finished. Said once for the order, the
/// subscription and the account pages, on the console and the command line.
public enum PurchaseTermsWords {
    /// "offer code SPRING", "introductory offer", "promotional offer vip_trial", "win-back offer back50".
    public static func offer(_ offer: AppleOffer) -> String {
        let name = offer.identifier.map { " \($0)" } ?? ""
        switch offer.type {
        case 1: return "introductory offer" + name
        case 2: return "promotional offer" + name
        case 3: return "offer code" + name
        case 4: return "win-back offer" + name
        default: return "offer type \(offer.type)" + name
        }
    }

    /// A commitment plan's payment as support says it: "monthly, payment 3 of 12, committed
    /// until 2027-03-01 00:00:00"; "billed up front" for Apple's usual plan; nil when Apple
    /// named no plan.
    public static func plan(_ t: AppleTransaction) -> String? {
        guard let commitment = t.commitment else {
            return t.billingPlan == "BILLED_UPFRONT" ? "billed up front" : t.billingPlan.map { $0.lowercased() }
        }
        var words = ["monthly"]
        if let payment = commitment.payment, let payments = commitment.payments { words.append("payment \(payment) of \(payments)") }
        if let end = commitment.endsAt { words.append("committed until \(TimeText.full(end))") }
        return words.joined(separator: ", ")
    }

    /// The subscription's plan and what happens at the end of its commitment, as Apple
    /// applies a cancellation: the payments go on until the last, and renewal stops after it.
    public static func commitmentRenewal(_ renewal: RenewalFacts, latest: AppleTransaction?) -> String? {
        guard let commitment = renewal.commitment else { return nil }
        let end = commitment.renewsAt ?? latest?.commitment?.endsAt
        let payments = latest?.commitment?.payments.map { "payment \($0)" } ?? "the last committed payment"
        guard commitment.renews == false else {
            return "renews for another commitment" + (end.map { " on \(TimeText.full($0))" } ?? "")
                + (commitment.renewsTo.map { " (\($0))" } ?? "")
        }
        return "cancelled during the commitment: payments go on, renewal stops after \(payments)" + (end.map { " (ends \(TimeText.full($0)))" } ?? "")
    }

    /// The renewal's other terms, each a line: the product it renews to when another, the
    /// grace period, billing retry, a price increase's consent, the win-back offers.
    public static func renewalLines(_ s: Subscription) -> [DetailLine] {
        let r = s.renewal
        var lines: [DetailLine] = []
        if let to = r.renewsTo, to != s.productId { lines.append(DetailLine(label: "renews to", to)) }
        if let grace = r.graceUntil { lines.append(DetailLine(label: "grace", "access kept until \(TimeText.full(grace)) while Apple retries", tone: .alert)) }
        if r.billingRetry { lines.append(DetailLine(label: "billing", "a renewal charge failed; Apple keeps trying", tone: .alert)) }
        switch r.priceIncrease {
        case 0?: lines.append(DetailLine(label: "price", "an increase waits for the subscriber's consent; without it the subscription ends", tone: .alert))
        case 1?: lines.append(DetailLine(label: "price", "the subscriber accepted the price increase"))
        default: break
        }
        if !r.winBackOffers.isEmpty {
            lines.append(DetailLine(label: "win-back", "may redeem \(r.winBackOffers.joined(separator: ", ")) to come back"))
        }
        return lines
    }

    /// Finish Transaction on a delivered App Store purchase: when Apple was told, or that it
    /// is owed. Google Play's counterpart is the acknowledgement, on the order's Google Play part.
    public static func finished(_ t: StoredTransaction, orderState: OrderState) -> DetailLine? {
        guard orderState == .delivered, t.transaction.marketplace == .appStore else { return nil }
        guard let at = t.finishedAt else { return DetailLine(label: "finished", "Apple not told yet (Finish Transaction is owed)", tone: .muted) }
        return DetailLine(label: "finished", "Apple told the purchase is finished at \(TimeText.full(at))")
    }
}
