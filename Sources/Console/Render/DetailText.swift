import Presentation
import SafeText
import Terminal

/// A detail page's sections as the console's scrolling lines: a section's labels padded to
/// one column as wide as its widest label, two cells before the values, so a label never
/// runs into its value; timed lines led by their time; headings styled as table headers.
enum DetailText {
    /// The narrowest label column: short labels still line up from page to page.
    static let minimumLabelWidth = 11

    static func lines(_ sections: [DetailSection], theme: Theme) -> [(String, Style)] {
        var lines: [(String, Style)] = []
        for section in sections {
            if let heading = section.heading {
                if !lines.isEmpty { lines.append(("", theme[.row])) }
                lines.append((heading, theme[tone: .heading]))
            }
            let width = labelWidth(section)
            lines += section.lines.map { (text(of: $0, labelWidth: width), theme[tone: $0.tone]) }
        }
        return lines
    }

    static func labelWidth(_ section: DetailSection) -> Int {
        max(minimumLabelWidth, section.lines.compactMap { $0.label.map(TextWidth.of) }.max() ?? 0)
    }

    static func text(of line: DetailLine, labelWidth: Int) -> String {
        let indent = String(repeating: "  ", count: line.depth)
        if let label = line.label { return indent + TextWidth.pad(label, to: labelWidth) + "  " + line.text }
        if let at = line.at { return indent + TimeText.full(at) + "  " + line.text }
        return indent + line.text
    }
}
