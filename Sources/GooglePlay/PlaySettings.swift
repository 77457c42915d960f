import Foundation

/// What iapdesk needs to work with Google Play (`[google_play]` in iapdesk.toml): the
/// packages it answers for, the service account it calls Google as, and how Cloud Pub/Sub
/// proves a real-time developer notification came from Google.
public struct PlaySettings: Sendable {
    /// The apps' package names; a purchase or notification of any other is refused.
    public var packageNames: [String]
    /// The service account (its JSON key file, as Play Console's Google Cloud project gives it).
    public var serviceAccount: ServiceAccountKey
    /// Where the androidpublisher API is: Google's, or a simulator's.
    public var apiBase: String
    public var push: PushSettings
    public var requestTimeout: Duration
    public var maxConnections: Int

    public init(
        packageNames: [String], serviceAccount: ServiceAccountKey, apiBase: String = PlaySettings.googleAPI, push: PushSettings,
        requestTimeout: Duration = .seconds(15), maxConnections: Int = 16
    ) {
        self.packageNames = packageNames
        self.serviceAccount = serviceAccount
        self.apiBase = apiBase
        self.push = push
        self.requestTimeout = requestTimeout
        self.maxConnections = maxConnections
    }

    public static let googleAPI = "https://androidpublisher.googleapis.com"
}

/// How a push from Cloud Pub/Sub is told from a forgery: its OIDC token is signed by Google
/// (keys at `certsURL`), names our `audience`, and was issued to the service account the
/// push subscription is configured with.
public struct PushSettings: Sendable {
    /// The push subscription's audience (by default Pub/Sub uses the push URL).
    public var audience: String
    /// The service account the push subscription authenticates as.
    public var serviceAccountEmail: String
    /// Google's signing certificates (PEM by key id).
    public var certsURL: String

    public init(audience: String, serviceAccountEmail: String, certsURL: String = PushSettings.googleCerts) {
        self.audience = audience
        self.serviceAccountEmail = serviceAccountEmail
        self.certsURL = certsURL
    }

    public static let googleCerts = "https://www.googleapis.com/oauth2/v1/certs"
}
