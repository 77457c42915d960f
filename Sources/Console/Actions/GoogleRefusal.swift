/// Google's refusal of an action, shown in the action's dialog as Google said it: nothing
/// was done.
struct GoogleRefusal: Error, CustomStringConvertible {
    let description: String
}
