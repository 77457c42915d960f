/// Google's refusal of an action, shown in the action's dialog as Google said it: nothing
/// was done.
struct GoogleRefusal: Error, CustomStringConvertible {
    let description: String
}

/// Apple's refusal of an action, shown as Apple said it: nothing changed.
struct AppleRefusal: Error, CustomStringConvertible {
    let description: String
}
