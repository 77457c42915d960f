import Foundation
import GooglePlay
import OrderDomain
import OrderStore
import Presentation

/// The worker's Google Play jobs: a notification's question to Google, and the sweep of
/// voided purchases.
extension Worker {
    /// Asks Google where a purchase a notification named stands (and, after a refund
    /// notification, which of its orders Google voided), and puts the answer through the rules.
    func refreshPlay(_ token: String) async throws -> JobQueue.Result {
        guard let play else { return .failed(ReasonWords.sentence(Why(.storeNotConfigured(.googlePlay)))) }
        guard let target = try await store.googlePlay.refreshTarget(purchaseToken: token) else { return .done }
        let report = await play.report(purchaseToken: token, package: target.packageName, subscription: target.kind.map { $0 == .subscription })
        var voided: [PlayVoidedPurchase] = []
        if let since = target.voidedSince {
            switch await play.client.voidedPurchases(package: target.packageName, since: Date(timeIntervalSince1970: Double(since) / 1000)) {
            case .failure(let failure): return .failed(PlayClient.describe(failure))
            case .success(let records): voided = records.filter { $0.purchaseToken == token }
            }
        }
        switch try await store.googlePlay.refresh(purchaseToken: token, report: report, voided: voided) {
        case .unanswered(let why): return .failed(ReasonWords.sentence(why))
        case .applied(let orderId, let state):
            logger.info("Google Play purchase refreshed", metadata: ["order": "\(orderId)", "state": "\(state.rawValue)"])
            return .done
        case .kept: return .done
        }
    }

    /// Reads a package's voided purchases since the last sweep (the last 30 days the first
    /// time in a process, an hour of overlap after), each a refund the rules apply once.
    func sweepVoided(_ package: String) async throws -> JobQueue.Result {
        guard let play else { return .done }
        let started = Date()
        let since = await voidedCursor.since(package) ?? started.addingTimeInterval(-30 * 86_400)
        switch await play.client.voidedPurchases(package: package, since: since) {
        case .failure(let failure): return .failed(PlayClient.describe(failure))
        case .success(let records):
            let new = try await store.googlePlay.receiveVoided(records)
            await voidedCursor.set(package, started.addingTimeInterval(-3600))
            if new > 0 { logger.info("Google Play voided purchases read", metadata: ["package": "\(package)", "new": "\(new)"]) }
            return .again(at: .now() + settings.voidedInterval)
        }
    }
}

/// Where each package's voided purchases were read up to, in this process.
actor VoidedCursor {
    private var read: [String: Date] = [:]
    func since(_ package: String) -> Date? { read[package] }
    func set(_ package: String, _ date: Date) { read[package] = date }
}
