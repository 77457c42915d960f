/// A dialog's field the console cannot read (a number that is not one, a word it does not
/// know): shown in the dialog, which stays open; nothing was sent to the store.
struct DialogInputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
