import NIOCore
import OrderDomain
import OrderStore
import Presentation
import Testing

@Suite("Errors and reasons in words")
struct ErrorWordsTests {
    static let errors: [any Error] = [
        StoreError.unknownProduct("gems_5000"), StoreError.productRetired("old_pack"), StoreError.productExists("coins_60"),
        StoreError.unknownApp("com.studio.kitten", served: ["com.studio.dragon"], subject: "coins_60"), StoreError.mustSettleDispute(orderId: "o-1"),
        StoreSetupError.otherApp(store: "com.studio.dragon", configured: "com.studio.kitten"), StoreSetupError.groupRolesMissing,
        AuditError.keyTooShort(minimumBytes: 32), AuditError.noKey, AuditError.notAnchored, AuditError.headForged(seq: 9),
    ]

    @Test("The store's errors name no key and no command; the words Presentation adds say what to do next")
    func nextSteps() {
        for error in Self.errors {
            let what = ErrorWords.what(error)
            #expect(!what.contains("`iapdesk") && !what.contains(" in the console"), "\(what)")
            let next = ErrorWords.nextStep(error)
            #expect(next?.contains("`iapdesk ") == true, "\(error)")
            #expect(ErrorWords.text(error) == "\(what): \(next ?? "")")
        }
        #expect(ErrorWords.text(StoreError.unknownProduct("gems_5000")).contains("iapdesk product add gems_5000"))
        #expect(ErrorWords.text(StoreError.unknownApp("com.studio.kitten", served: ["com.studio.dragon"], subject: "coins_60")).hasPrefix("coins_60: no app"))
        #expect(ErrorWords.text(StoreError.orderExists(orderId: "o-1")) == "order o-1 already exists", "an error with nothing to add is its own words")
        let roles = StoreRepair.rolesNotGranted(why: "permission denied")
        #expect(!roles.words.contains("`iapdesk") && ErrorWords.text(roles).contains("`iapdesk operator db-roles --apply`"))
    }

    @Test("A refusal names the act as a value; each act has words of its own, which the refusals say")
    func operatorActs() {
        let words = OperatorAct.allCases.map(\.words)
        #expect(Set(words).count == OperatorAct.allCases.count && !words.contains(""))
        #expect(ErrorWords.text(StoreError.forbidden(action: .grantRejectedOrder, role: .support)).hasPrefix("the support role may not grant a rejected order"))
        #expect(ErrorWords.text(StoreError.reasonRequired(action: .writeNotes)).hasPrefix("write notes needs a reason"))
    }

    @Test("A refusal decided before Apple or Google is asked is a value; its words name its particulars")
    func refusalsInWords() {
        #expect(
            ErrorWords.what(AppleActionError.extensionRefused(originalTransactionId: "o-1", .yearlyLimit(sent: 2)))
                == "subscription o-1 cannot be extended: it was extended 2 times in the last 365 days; Apple allows 2 (nothing was sent to Apple)")
        #expect(ErrorWords.what(AppleActionError.extensionRefused(originalTransactionId: "o-1", .notActive(.expired))).contains("it is expired"))
        #expect(ErrorWords.what(StoreError.deferRefused(originalTransactionId: "o-2", .days(0, max: 365))).hasSuffix("0 days: 1 to 365"))
        #expect(ErrorWords.what(StoreError.deferRefused(originalTransactionId: "o-2", .notActive(nil))).contains("not known here"))
        #expect(
            ErrorWords.what(AuditError.broken(seq: 7, why: .macMissing(signedSince: 3)))
                .contains("entry 7 (it carries no MAC though the log is signed from entry 3"))
        #expect(
            ExtensionRule.reasonCodes.map(ExtensionRule.reasonCodeWords(of:)) == ["undeclared", "customer satisfaction", "other", "service issue or outage"])
    }

    @Test("A database driver's error is said in the database's words, though Presentation links no driver; another library's error as itself")
    func databaseWords() {
        let dropped = ChannelError.ioOnClosedChannel
        #expect(ErrorWords.knows(dropped) && ErrorWords.what(dropped) == "connection: \(dropped)")
        struct Elsewhere: Error {}
        #expect(!ErrorWords.knows(Elsewhere()) && ErrorWords.what(Elsewhere()) == "\(Elsewhere())")
    }

    @Test("A rejected order's page names its reason code (what `stuck reverify --rejected` takes) and the next step; a waiting one its fix")
    func reasonOnTheOrderPage() {
        #expect(ReasonWords.nextStep(forRejected: .appleStatus(21010)).contains("--rejected apple.status.21010"))
        #expect(ReasonWords.nextStep(.sharedSecretRejected)?.contains("shared_secret_file") == true)
        #expect(ReasonWords.nextStep(.ownershipDisputed)?.contains("iapdesk order resolve") == true)
        #expect(ReasonWords.nextStep(.storeUnreachable(.appStore))?.contains("retries ran out") == true, "waiting for a person only once the schedule ran out")
        #expect(ReasonWords.nextStep(.googlePending) == nil, "Google tells when the player pays")
    }
}
