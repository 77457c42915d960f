import Presentation
import Terminal
import Testing

@testable import Console

/// A detail page's labelled lines, as every detail screen draws them.
@Suite("Detail text")
struct DetailTextTests {
    @Test("A label never runs into its value: a section's labels take one column as wide as its widest (CJK counted as two cells), two cells before each value")
    func labelsStandApart() {
        let sections = [
            DetailSection(
                nil,
                [
                    DetailLine(label: "state", "delivered"), DetailLine(label: "Apple Account", "no other game account seen on it"),
                    DetailLine(label: "商品名称", "月卡"), DetailLine(label: "deadline", "2026-11-27 10:00:00", depth: 1),
                ]),
            DetailSection("Commitment", [DetailLine(label: "plan", "monthly, payment 3 of 12")]),
        ]
        let lines = DetailText.lines(sections, theme: .builtIn).map(\.0)
        #expect(lines[0] == "state          delivered")
        #expect(lines[1] == "Apple Account  no other game account seen on it")
        #expect(lines[2] == "商品名称       月卡")
        #expect(lines[3] == "  deadline       2026-11-27 10:00:00")
        #expect(lines.last == "plan         monthly, payment 3 of 12", "a short section keeps the narrowest column")
        for (line, section) in zip(lines[0..<4], [sections[0]].flatMap(\.lines)) {
            let label = section.label ?? ""
            let after = line.drop { $0 == " " }.dropFirst(label.count)
            #expect(after.hasPrefix("  "), "\(line)")
        }
    }
}
