import AppStore
import ConfigFiles
import OrderDomain
import OrderStore
import Presentation

/// Every setting of `iapdesk.toml` and its environment variable, in the order they are
/// applied (Apple's `simulator` before the URLs it sets, which may then be set one by one).
/// `[[apps]]` entries and `[console.aliases]` are tables of their own (``AppConfiguration``,
/// ``Configuration/read(aliases:)``).
extension Setting {
    static var all: [Setting] { store + apple + other + refunds + googlePlay }

    /// Sections of the file with keys that are secrets, which the file refuses: secrets
    /// come from files or the environment only.
    static let inlineSecrets: [String: Set<String>] = [
        "apple": ["shared_secret", "key", "private_key", "password"],
        "game": ["webhook_secret", "webhook_secrets", "secret", "secrets"],
        "audit": ["key", "secret"],
        "serve": ["client_tokens", "tokens", "token"],
        "google_play": ["service_account_key", "private_key", "key"],
    ]

    private static var store: [Setting] {
        [
            .text("store", "db", "IAPDESK_DB", "the store: a SQLite path or a postgres:// URL (./iapdesk.sqlite)", \.db),
            .text("store", "bundle_id", "IAPDESK_BUNDLE_ID", "the first app's bundle id (else the store's own)") { config, id, _ in
                (config.bundleId, config.bundleIdConfigured) = (id, true)
            },
            .text("store", "environment", "IAPDESK_ENVIRONMENT", "production or sandbox: a production store flags sandbox purchases (production)") {
                config, word, place in
                switch word.lowercased() {
                case "production": config.isProduction = true
                case "sandbox": config.isProduction = false
                default: throw place.error("expected \"production\" or \"sandbox\", got \"\(word)\"")
                }
            },
            .count("store", "stuck_threshold_seconds", "IAPDESK_STUCK_THRESHOLD_SECONDS", "an order waiting longer is stuck (300)", \.stuckThresholdSeconds),
            .count(
                "store", "deadline_seconds", "IAPDESK_DEADLINE_SECONDS", "the longest any one database call may take; then 503 (10)", \.databaseDeadlineSeconds),
        ]
    }

    private static var apple: [Setting] {
        [
            .text(nil, nil, "IAPDESK_SHARED_SECRET", "verifyReceipt's app shared secret itself (environment only)") { config, secret, place in
                config.sharedSecret = Secret(value: secret, origin: "env \(place.name)")
            },
            .secretFile("apple", "shared_secret_file", "IAPDESK_SHARED_SECRET_FILE", "the file holding verifyReceipt's app shared secret", \.sharedSecret),
            .secretFile("apple", "key_file", "IAPDESK_KEY_FILE", "the In-App Purchase key (.p8) for the App Store Server API", \.privateKey),
            .text("apple", "key_id", "IAPDESK_KEY_ID", "the In-App Purchase key's id", \.keyId),
            .text("apple", "issuer_id", "IAPDESK_ISSUER_ID", "the team's issuer id", \.issuerId),
            .count("apple", "timeout_seconds", "IAPDESK_APPLE_TIMEOUT_SECONDS", "per HTTP request to Apple (30)", \.timeoutSeconds),
            .text("apple", "simulator", "IAPDESK_APPLE_SIMULATOR", "every Apple URL at an `iapdesk simulator`") { config, base, _ in config.useSimulator(base)
            },
            .text("apple", "verify_receipt_url", "IAPDESK_VERIFY_RECEIPT_URL", "verifyReceipt (Apple's)") { config, url, _ in
                config.verifyReceipt.productionURL = url
            },
            .text("apple", "verify_receipt_sandbox_url", "IAPDESK_VERIFY_RECEIPT_SANDBOX_URL", "verifyReceipt's sandbox (Apple's)") { config, url, _ in
                config.verifyReceipt.sandboxURL = url
            },
            .text("apple", "server_api_url", "IAPDESK_SERVER_API_URL", "the App Store Server API (Apple's)", \.serverAPIURL),
            .text("apple", "server_api_sandbox_url", "IAPDESK_SERVER_API_SANDBOX_URL", "the App Store Server API's sandbox (Apple's)", \.serverAPISandboxURL),
        ]
    }

    private static var other: [Setting] {
        [
            .text("receipts", "trust_roots", "IAPDESK_TRUST_ROOTS", "a folder of Apple's root certificates (self-signed only)", \.trustRoots),
            .text("receipts", "xcode_root", "IAPDESK_XCODE_ROOT", "the StoreKit test certificate, for Xcode receipts only", \.xcodeRoot),
            .text("console", "theme", "IAPDESK_THEME", "the console's theme, by name or file (default)", \.theme),
            .text("serve", "client_tokens_file", "IAPDESK_CLIENT_TOKENS_FILE", "the game servers' tokens, one `name token` a line", \.clientTokensFile),
            .text("game", "webhook_url", "IAPDESK_GAME_WEBHOOK_URL", "where serve pushes events; unset, games pull /v1/events", \.gameWebhookURL),
            .text("game", "webhook_secrets_file", "IAPDESK_GAME_WEBHOOK_SECRETS_FILE", "the webhook's signing secrets, one a line") { config, file, place in
                config.gameWebhookSecrets = try Configuration.secrets(file: file, setting: place.name, in: place.file)
            },
            .count(
                "game", "webhook_retry_hours", "IAPDESK_GAME_WEBHOOK_RETRY_HOURS", "how long an event is retried before it is dead (72)",
                \.gameWebhookRetryHours),
            .text("audit", "key_file", "IAPDESK_AUDIT_KEY_FILE", "signs the audit log (iapdesk audit new-key)") { config, file, place in
                try config.loadAuditKey(file: file, setting: place.name, in: place.file)
            },
            .text("audit", "witness_file", "IAPDESK_AUDIT_WITNESS_FILE", "where audit verify last saw the log end", \.auditWitnessFile),
        ]
    }

    /// `[refunds]`: the policy by which the worker answers Apple's refund requests.
    private static var refunds: [Setting] {
        let types = ProductType.allCases.map { type in
            Setting.text("refunds", type.rawValue, "IAPDESK_REFUNDS_\(type.rawValue.uppercased())", "operator (default) or answer, for \(type.rawValue)") {
                config, word, place in
                guard let mode = RefundPolicy.Mode(rawValue: word) else { throw place.error("operator or answer, not \(word)") }
                config.changeRefundPolicy { $0.modes[type] = mode }
            }
        }
        let hours = Setting(
            section: "refunds", key: "answer_before_deadline_hours", variable: "IAPDESK_REFUNDS_ANSWER_BEFORE_DEADLINE_HOURS", form: .count,
            help: "answered from the evidence this long before Apple's deadline when no one has (1 to 11)"
        ) { config, value, place in
            guard case .count(let hours) = value else { return }
            guard hours <= 11 else { throw place.error("1 to 11 (Apple waits 12)") }
            config.changeRefundPolicy { $0.answerBefore = .hours(hours) }
        }
        let words = RefundAnswerWords.preferences.map(\.word)
        let prefer = Setting.text("refunds", "prefer", "IAPDESK_REFUNDS_PREFER", "the refundPreference sent: \(words.joined(separator: ", ")) or none") {
            config, word, place in
            let preference = RefundAnswerWords.preferences.first { $0.word == word }?.preference
            guard preference != nil || word == RefundAnswerWords.none else { throw place.error("\(words.joined(separator: ", ")) or none, not \(word)") }
            config.changeRefundPolicy { $0.preference = preference }
        }
        return types + [hours, prefer]
    }

    /// `[google_play]`: the store's Android apps (``PlayConfiguration``).
    private static var googlePlay: [Setting] {
        [
            Setting(
                section: "google_play", key: "package_names", variable: "IAPDESK_GOOGLE_PLAY_PACKAGE_NAMES", form: .list,
                help: "the Play package names this store serves (comma-separated in the variable)"
            ) { config, value, _ in
                if case .list(let names) = value { config.googlePlay.packageNames = names }
            },
            .secretFile(
                "google_play", "service_account_key_file", "IAPDESK_GOOGLE_PLAY_SERVICE_ACCOUNT_KEY_FILE", "Play Console's service account JSON key",
                \.googlePlay.serviceAccountKey),
            .text("google_play", "push_audience", "IAPDESK_GOOGLE_PLAY_PUSH_AUDIENCE", "the push subscription's audience", \.googlePlay.pushAudience),
            .text(
                "google_play", "push_service_account_email", "IAPDESK_GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT_EMAIL", "the service account that signs the pushes",
                \.googlePlay.pushServiceAccountEmail),
            .count("google_play", "timeout_seconds", "IAPDESK_GOOGLE_PLAY_TIMEOUT_SECONDS", "per HTTP request to Google (15)", \.googlePlay.timeoutSeconds),
            .text("google_play", "simulator", "IAPDESK_GOOGLE_PLAY_SIMULATOR", "both Google URLs at an `iapdesk play-simulator`") { config, base, _ in
                config.googlePlay.useSimulator(base)
            },
            .text("google_play", "api_url", "IAPDESK_GOOGLE_PLAY_API_URL", "the Google Play Developer API (Google's)", \.googlePlay.apiURL),
            .text("google_play", "certs_url", "IAPDESK_GOOGLE_PLAY_CERTS_URL", "Google's certificates for push tokens (Google's)", \.googlePlay.certsURL),
        ]
    }
}
