/// Which of Apple's environments answered a verification (R2).
public enum AppleEnvironment: String, Sendable, CaseIterable, Codable {
    case production = "Production"
    case sandbox = "Sandbox"
}
