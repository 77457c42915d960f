import Presentation
import Terminal

/// A detail page's sections as the console's scrolling lines: labels padded to one column,
/// timed lines led by their time, headings styled as table headers.
enum DetailText {
    static let labelWidth = 13

    static func lines(_ sections: [DetailSection], theme: Theme) -> [(String, Style)] {
        var lines: [(String, Style)] = []
        for section in sections {
            if let heading = section.heading {
                if !lines.isEmpty { lines.append(("", theme[.row])) }
                lines.append((heading, theme[tone: .heading]))
            }
            lines += section.lines.map { (text(of: $0), theme[tone: $0.tone]) }
        }
        return lines
    }

    static func text(of line: DetailLine) -> String {
        let indent = String(repeating: "  ", count: line.depth)
        if let label = line.label { return indent + label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + line.text }
        if let at = line.at { return indent + TimeText.full(at) + "  " + line.text }
        return indent + line.text
    }
}
