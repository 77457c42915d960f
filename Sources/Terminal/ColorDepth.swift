/// How many colours the terminal shows, and the mapping of a theme's colours onto them:
/// 24-bit to the 256-colour cube, 256 to the 16 ANSI colours, 16 to 8, and none at all
/// under `NO_COLOR` or on a monochrome terminal (attributes still apply).
public enum ColorDepth: Int, Sendable, Comparable {
    case none = 0, eight = 8, sixteen = 16, full = 256

    /// From ncurses' `COLORS` and the environment: `NO_COLOR` (any value) wins.
    public static func detect(colors: Int, environment: [String: String]) -> ColorDepth {
        if environment["NO_COLOR"] != nil || colors < 8 { return .none }
        return colors >= 256 ? .full : colors >= 16 ? .sixteen : .eight
    }

    /// The palette index to use for `color`; nil for the terminal's default (or no colour).
    public func index(for color: TerminalColor) -> Int? {
        switch (self, color) {
        case (.none, _), (_, .terminalDefault): return nil
        case (_, .rgb(let r, let g, let b)): return reduce(Self.nearest256(r, g, b))
        case (_, .indexed(let i)): return reduce(min(max(i, 0), 255))
        }
    }

    public static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool { lhs.rawValue < rhs.rawValue }

    private func reduce(_ index: Int) -> Int {
        switch self {
        case .full, .none: return index
        case .sixteen: return index < 16 ? index : Self.nearest(in: 0..<16, to: Self.rgb(of: index))
        case .eight:
            if index < 16 { return index % 8 }
            return Self.nearest(in: 0..<8, to: Self.rgb(of: index))
        }
    }

    /// xterm's 6×6×6 cube levels.
    private static let levels: [Int] = [0, 95, 135, 175, 215, 255]

    /// xterm's default RGB for palette entry `index`.
    static func rgb(of index: Int) -> (Int, Int, Int) {
        let basic: [(Int, Int, Int)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
            (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        if index < 16 { return basic[index] }
        if index >= 232 { let v = 8 + (index - 232) * 10; return (v, v, v) }
        let i = index - 16
        return (levels[i / 36], levels[(i / 6) % 6], levels[i % 6])
    }

    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        nearest(in: 16..<256, to: (Int(r), Int(g), Int(b)))
    }

    private static func nearest(in range: Range<Int>, to target: (Int, Int, Int)) -> Int {
        var best = range.lowerBound
        var bestDistance = Int.max
        for index in range {
            let (r, g, b) = rgb(of: index)
            let distance = (r - target.0) * (r - target.0) + (g - target.1) * (g - target.1) + (b - target.2) * (b - target.2)
            if distance < bestDistance { (best, bestDistance) = (index, distance) }
        }
        return best
    }
}
