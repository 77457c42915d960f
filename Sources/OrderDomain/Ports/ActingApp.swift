/// Which app a call to Apple is about, for the client that signs it: the App Store Server
/// API's token names one app (`bid`), and each app of a store may have its own key. The
/// store's operations know the app (an order's, a product's, a notification's) and set it
/// around the call they make through a caller's closure; the client reads it. Unset: the
/// store's first app.
public enum ActingApp {
    @TaskLocal public static var bundleId: String?
}
