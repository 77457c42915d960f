extension Array {
    /// The array in consecutive slices of at most `size` elements: the rows of one
    /// multi-row statement each.
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
