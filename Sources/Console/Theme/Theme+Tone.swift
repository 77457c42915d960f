import Presentation
import Terminal

extension Theme {
    /// The style for what a piece of presented text means.
    public subscript(tone tone: Tone) -> Style {
        switch tone {
        case .plain: self[.row]
        case .muted: self[.muted]
        case .alert: self[.flashError]
        case .passed: self[.checkPassed]
        case .failed: self[.checkFailed]
        case .heading: self[.tableHeader]
        case .marked: self[.flashInfo]
        case .state(let state): self[.state(state)]
        }
    }
}
