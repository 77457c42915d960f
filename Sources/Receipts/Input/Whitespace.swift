extension StringProtocol {
    /// The text without its leading and trailing whitespace and line breaks, found on its
    /// scalars. Foundation's `trimmingCharacters(in:)` goes through UTF-16 on Linux: on a
    /// signed notification it was a tenth of the acknowledgement's time.
    package var trimmedOfWhitespace: SubSequence {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
