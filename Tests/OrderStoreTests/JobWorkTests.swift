import OrderDomain
import Testing

@testable import OrderStore

/// What a job is about is read by its kind in one place.
@Suite("Job work")
struct JobWorkTests {
    @Test("Every job's kind and subject read back as the work they were written from; a subject its kind cannot have is no work")
    func roundTrip() {
        let works: [JobWork] = [
            .verify(orderId: "g-1"), .applyNotifications(key: "2000000000000001"), .notificationHistory(.sandbox), .expirySweep,
            .subscriptionCheck(originalTransactionId: "2000000000000002"), .sendEvents(accountId: "p-1"), .refundPolicy,
            .finishTransaction(transactionId: "2000000000000003"), .playRefresh(purchaseToken: "gp-token-0123456789"),
            .playAcknowledge(purchaseToken: "gp-token-0123456789"), .playVoidedSweep(packageName: "com.iapdesk.demo"),
        ]
        #expect(Set(works.map(\.kind)) == Set(JobKind.allCases), "every kind has its work")
        for work in works { #expect(JobWork(kind: work.kind, subject: work.subject) == work, "\(work)") }
        #expect(JobWork(kind: .notificationHistory, subject: "Staging") == nil)
    }
}
