import Terminal

/// A style per role. Roles a theme file leaves out keep the built-in default's style, so a
/// theme can be a few lines.
public struct Theme: Sendable, Equatable {
    public var name: String
    public var styles: [ThemeRole: Style]

    public subscript(role: ThemeRole) -> Style { styles[role] ?? Self.builtIn.styles[role] ?? .plain }

    /// The dark default, compiled in: what the console falls back to when a theme file is
    /// missing or broken. `themes/default.toml` spells out the same styles.
    public static let builtIn: Theme = {
        var styles: [ThemeRole: Style] = [
            .header: Style(foreground: .indexed(255), background: .indexed(24), attributes: .bold),
            .headerBadge: Style(foreground: .indexed(16), background: .indexed(214), attributes: .bold),
            .tableHeader: Style(foreground: .indexed(81), attributes: .bold),
            .row: .plain,
            .selectedRow: Style(foreground: .indexed(16), background: .indexed(117)),
            .footerKey: Style(foreground: .indexed(16), background: .indexed(250), attributes: .bold),
            .footerText: Style(foreground: .indexed(250)),
            .flashInfo: Style(foreground: .indexed(114), attributes: .bold),
            .flashError: Style(foreground: .indexed(203), attributes: .bold),
            .dialog: Style(foreground: .indexed(255), background: .indexed(236)),
            .dialogTitle: Style(foreground: .indexed(214), background: .indexed(236), attributes: .bold),
            .muted: Style(foreground: .indexed(244)),
            .checkPassed: Style(foreground: .indexed(114)),
            .checkFailed: Style(foreground: .indexed(203), attributes: .bold),
        ]
        let states: [String: Style] = [
            "pending_payment": Style(foreground: .indexed(244)),
            "receipt_received": Style(foreground: .indexed(221)),
            "verify_retry": Style(foreground: .indexed(214), attributes: .bold),
            "verified": Style(foreground: .indexed(117)),
            "delivered": Style(foreground: .indexed(114)),
            "refunded": Style(foreground: .indexed(176)),
            "rejected": Style(foreground: .indexed(203)),
            "disputed": Style(foreground: .indexed(213), attributes: .bold),
        ]
        for (name, style) in states { if let role = ThemeRole(name: "state_\(name)") { styles[role] = style } }
        return Theme(name: "default", styles: styles)
    }()
}
