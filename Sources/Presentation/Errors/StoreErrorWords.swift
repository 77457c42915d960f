import OrderDomain

/// What the store refused, in words: what happened, naming no key and no command (`ErrorWords` adds what to do).
extension StoreError {
    public var words: String {
        switch self {
        case .unknownProduct(let id):
            "no product \(id) in the catalogue"
        case .productRetired(let id):
            "product \(id) is retired: no new order may name it"
        case .productExists(let id):
            "\(id) is in the catalogue already"
        case .unknownApp(let app, let served, let subject):
            (subject.map { "\($0): " } ?? "") + "no app \(app) in this store (\(served.joined(separator: ", ")))"
        case .notPaidIn(let store, let id):
            "\(id) has no purchase \(store == .googlePlay ? "Google Play" : "the App Store") confirmed"
        case .deferRefused(let otid, .days(let days, let max)):
            "subscription \(otid) cannot be deferred: \(days) days: 1 to \(max)"
        case .deferRefused(let otid, .notActive(let status)):
            "subscription \(otid) cannot be deferred: it is \(status?.rawValue ?? "not known here"); Google defers active ones"
        case .corrupt(let what):
            "store data is inconsistent: \(what)"
        case .notFound(let kind, let id):
            "no \(kind.rawValue) \(id)"
        case .conflict(let orderId, let changedBy, let at, let version):
            "order \(orderId) was changed by \(changedBy) at \(at.iso8601) (now version \(version)); reload it and decide again"
        case .alreadyDelivered(let orderId, let by, let at):
            "order \(orderId) was already delivered by \(by) at \(at.iso8601); nothing was granted twice"
        case .illegalTransition(let orderId, let from, let to):
            "order \(orderId) cannot go from \(from.rawValue) to \(to.rawValue)"
        case .forbidden(let action, let role):
            "the \(role.rawValue) role may not \(action.words)"
        case .onReplica(let action):
            "cannot \(action.words) here: this store is a PostgreSQL hot standby, which only reads; open the primary to act"
        case .reasonRequired(let action):
            "\(action.words) needs a reason: it goes into the audit log"
        case .invalid(let what):
            what.words
        case .orderExists(let orderId):
            "order \(orderId) already exists"
        case .noReceipt(let orderId):
            "order \(orderId) has no stored receipt to verify"
        case .emptyReceipt(let orderId):
            "empty receipt for order \(orderId)"
        case .transactionTaken(let transactionId, let orderId):
            "transaction \(transactionId) already belongs to order \(orderId)"
        case .hasTransaction(let orderId, let state):
            "order \(orderId) is \(state.rawValue) and already has its transaction"
        case .jobNotDead(let id):
            "job \(id) is not dead (only dead jobs are requeued; the others run on their own)"
        case .alreadyOwner(let accountId, let otid):
            "\(accountId) already owns subscription \(otid)"
        case .notDisputed(let orderId, let state):
            "order \(orderId) is \(state.rawValue), not disputed"
        case .unservedFilter(let why):
            why
        case .notificationRejected(let id):
            "notification \(id) failed its checks; it is never applied"
        case .firstOperatorMustBeAdmin:
            "the first operator of a store must be an admin"
        case .mustSettleDispute(let orderId):
            "order \(orderId) is a disputed renewal (R8): it leaves only by being settled"
        case .checkFailed(let orderId, let check):
            "order \(orderId): check failed: \(check.name.rawValue): \(CheckWords.saw(check))"
        case .replay(let orderId, let holder):
            "order \(orderId) cannot take this purchase: \(holder.key) already claimed by order \(holder.order) of account \(holder.account)"
        case .idempotencyMismatch(let key):
            "Idempotency-Key \(key) was used before with a different request"
        case .orderMismatch(let orderId):
            "order \(orderId) exists with another account, product or quantity"
        case .verifyingElsewhere(let orderId, let by):
            "order \(orderId) is being verified by \(by) right now; its answer will be on the order"
        case .unavailable(let why):
            "the order store is unreachable: \(why)"
        }
    }
}
