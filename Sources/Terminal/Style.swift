/// A colour as a theme names it; the driver maps it to what the terminal has.
public enum TerminalColor: Hashable, Sendable {
    /// The terminal's own foreground or background.
    case terminalDefault
    /// An xterm palette index, 0–255 (0–7 the basic colours, 8–15 their bright forms).
    case indexed(Int)
    /// 24-bit, mapped to the nearest palette entry the terminal has.
    case rgb(UInt8, UInt8, UInt8)
}

public struct TextAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = TextAttributes(rawValue: 1)
    public static let dim = TextAttributes(rawValue: 2)
    public static let underline = TextAttributes(rawValue: 4)
    public static let reverse = TextAttributes(rawValue: 8)
    public static let italic = TextAttributes(rawValue: 16)
}

/// How a cell looks: foreground, background and attributes.
public struct Style: Hashable, Sendable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var attributes: TextAttributes

    public init(foreground: TerminalColor = .terminalDefault, background: TerminalColor = .terminalDefault, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = Style()
}
