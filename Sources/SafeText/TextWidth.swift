/// Text measured in terminal cells: CJK and emoji take two, combining marks none.
/// Sanitize first; control characters are not measured here.
public enum TextWidth {
    /// Cells one extended grapheme cluster takes.
    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }  // emoji presentation
        return width(of: first)
    }

    /// Cells a string takes.
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The longest prefix that fits in `cells`, with `…` when cut. A wide character that
    /// would straddle the edge is left out rather than split.
    public static func truncate(_ text: String, to cells: Int) -> String {
        guard cells > 0 else { return "" }
        if of(text) <= cells { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > cells - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

    /// `text` cut to `cells` and padded with spaces to exactly `cells`.
    public static func fit(_ text: String, to cells: Int) -> String {
        pad(truncate(text, to: cells), to: cells)
    }

    /// `text` padded with spaces to at least `cells`; never cut (an id is read whole).
    public static func pad(_ text: String, to cells: Int) -> String {
        text + String(repeating: " ", count: max(0, cells - of(text)))
    }

    /// `text` broken into lines of at most `cells`, at spaces where it can, inside a word
    /// where it must; wide characters are never split.
    public static func wrap(_ text: String, to cells: Int) -> [String] {
        guard cells > 0 else { return [] }
        var lines: [String] = []
        var line = "", used = 0
        var lastSpace: String.Index?
        for character in text {
            let w = of(character)
            if used + w > cells {
                if let space = lastSpace, space > line.startIndex {
                    let rest = String(line[line.index(after: space)...])
                    lines.append(String(line[..<space]))
                    line = rest
                    used = of(rest)
                } else {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                lastSpace = nil
                if character == " " && line.isEmpty { continue }
            }
            if character == " " { lastSpace = line.endIndex }
            line.append(character)
            used += w
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Like `wrap`, with every line after the first indented by `hang` cells, so a wrapped
    /// description stays in its column instead of restarting at the margin.
    public static func wrap(_ text: String, to cells: Int, hang: Int) -> [String] {
        let lines = wrap(text, to: cells)
        guard lines.count > 1, hang > 0, cells - hang >= 10 else { return lines }
        var rest = Substring(text.dropFirst(lines[0].count))
        while rest.first == " " { rest = rest.dropFirst() }
        let indent = String(repeating: " ", count: hang)
        return [lines[0]] + wrap(String(rest), to: cells - hang).map { indent + $0 }
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B { return 0 }
        // East Asian Wide and Fullwidth blocks, and the emoji planes.
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1F680...0x1F6FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
