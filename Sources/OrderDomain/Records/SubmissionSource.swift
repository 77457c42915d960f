/// Where a receipt came from.
public enum SubmissionSource: String, Sendable, Codable {
    case client, notification, `operator`
}
