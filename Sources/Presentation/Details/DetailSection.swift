import OrderDomain

/// A line of a detail page: a labelled field ("state  delivered"), a timed entry (a
/// timeline line), or plain text, with its tone.
public struct DetailLine: Sendable, Equatable {
    public var label: String?
    public var at: Millis?
    public var text: String
    public var tone: Tone
    /// Levels in, for a line that belongs to the one above it (a check under its verdict).
    public var depth: Int

    public init(label: String? = nil, at: Millis? = nil, _ text: String, tone: Tone = .plain, depth: Int = 0) {
        self.label = label
        self.at = at
        self.text = text
        self.tone = tone
        self.depth = depth
    }
}

/// A part of a detail page, under its heading (the first part of a page has none).
public struct DetailSection: Sendable, Equatable {
    public var heading: String?
    public var lines: [DetailLine]

    /// `empty` is said, muted, when there are no lines, so a heading never stands alone.
    public init(_ heading: String? = nil, _ lines: [DetailLine], empty: String = "none") {
        self.heading = heading
        self.lines = lines.isEmpty ? [DetailLine(empty, tone: .muted)] : lines
    }
}
