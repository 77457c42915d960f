import Foundation
import OrderDomain
import OrderStore
import Presentation

/// What the console does with events owed to the game.
enum EventActions {
    /// How long the progress bar follows resent events before it leaves them to `:undelivered`.
    static let watchFor: Duration = .seconds(600)

    /// Follows `resent` events until the game has answered each (confirmed, or dead again)
    /// or the operator presses Esc: the progress bar counts the game's answers.
    static func resendAllDead(_ resent: [GameEvent], store: OrderStore) -> BackgroundJob {
        BackgroundJob(title: "game answering \(resent.count) resent events") { job in
            let deadline = ContinuousClock.now + watchFor
            var outcome: (confirmed: Int, dead: Int, lastError: String?) = (0, 0, nil)
            while true {
                do {
                    outcome = try await store.outbox.outcomes(resent)
                } catch {
                    return ("resent \(resent.count) events; following them failed: \(ErrorWords.what(error))", true)
                }
                job.report(done: outcome.confirmed + outcome.dead, total: resent.count)
                if outcome.confirmed + outcome.dead >= resent.count || job.isStopping || ContinuousClock.now >= deadline { break }
                try? await Task.sleep(for: .milliseconds(250))
            }
            let owed = resent.count - outcome.confirmed - outcome.dead
            var text = "resent \(resent.count): \(outcome.confirmed) confirmed by the game"
            if outcome.dead > 0 { text += ", \(outcome.dead) dead again" }
            if owed > 0 { text += ", \(owed) still being tried" }
            if outcome.confirmed < resent.count, let error = outcome.lastError { text += " (last: \(error))" }
            return (text, outcome.dead > 0)
        }
    }
}
