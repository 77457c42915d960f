import OrderDomain
import OrderStore

/// The small answers of `serve` that are not the intake's or the events': each one Encodable
/// type with its keys as `openapi.yaml` (or the operator's endpoints) spell them.
enum SmallAnswers {
    /// A notification Apple may stop sending: stored (or stored before) under this row id.
    struct Stored: Encodable {
        var status = "stored"
        var id: Int64
    }

    /// `/healthz`: the process answers.
    struct Alive: Encodable {
        var status = "ok"
    }

    /// `/readyz`: the store answers, and the worker's queue as it stands.
    struct Ready: Encodable {
        var status = "ready"
        var jobsDue: Int
        var oldestDueAt: Millis?
        var jobsLeased: Int
        var jobsDead: Int

        init(_ queue: JobQueueStatus) {
            jobsDue = queue.due
            oldestDueAt = queue.oldestDueAt
            jobsLeased = queue.leased
            jobsDead = queue.dead
        }

        enum CodingKeys: String, CodingKey {
            case status
            case jobsDue = "jobs_due", oldestDueAt = "oldest_due_at", jobsLeased = "jobs_leased", jobsDead = "jobs_dead"
        }
    }

    /// RFC 9457 problem details.
    struct ProblemDocument: Encodable {
        var type: String
        var title: String
        var status: Int
        var detail: String
    }
}
