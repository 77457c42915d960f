import TestSupport
import Testing

/// Where PostgreSQL cannot run, every two-backend test runs its SQLite case only (a case
/// cannot report itself skipped); this test is the one that shows it, skipped with the reason.
@Suite("Backends under test")
struct BackendAvailabilityTests {
    @Test("Every two-backend test also runs its PostgreSQL case", .needsPostgres)
    func postgresCasesRun() {
        #expect(Backend.all == [.sqlite, .postgres])
    }
}
