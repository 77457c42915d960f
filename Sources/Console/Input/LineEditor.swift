import Terminal

/// The one-line editor behind `/` and `:`: typing, Backspace, Ctrl-U to clear.
public struct LineEditor: Equatable, Sendable {
    public var text: String = ""

    /// Applies an editing key; false when the key is not an editing key.
    public mutating func edit(_ key: Key) -> Bool {
        switch key {
        case .character(let c):
            text.append(c)
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .control("u"):
            text = ""
        default:
            return false
        }
        return true
    }
}
