import OrderDomain
import OrderStore

/// Everything on the console that a theme styles. A theme file names these as tables:
/// `[header]`, `[selected_row]`, `[state_verify_retry]`…
public enum ThemeRole: Hashable, Sendable, CaseIterable {
    case header, headerBadge, tableHeader, row, selectedRow
    case footerKey, footerText, flashInfo, flashError
    case dialog, dialogTitle, muted, checkPassed, checkFailed
    case state(OrderState)

    public static var allCases: [ThemeRole] {
        [
            .header, .headerBadge, .tableHeader, .row, .selectedRow, .footerKey, .footerText, .flashInfo, .flashError,
            .dialog, .dialogTitle, .muted, .checkPassed, .checkFailed,
        ] + OrderState.allCases.map { .state($0) }
    }

    /// The table name in a theme file.
    public var name: String {
        switch self {
        case .header: "header"
        case .headerBadge: "header_badge"
        case .tableHeader: "table_header"
        case .row: "row"
        case .selectedRow: "selected_row"
        case .footerKey: "footer_key"
        case .footerText: "footer_text"
        case .flashInfo: "flash_info"
        case .flashError: "flash_error"
        case .dialog: "dialog"
        case .dialogTitle: "dialog_title"
        case .muted: "muted"
        case .checkPassed: "check_passed"
        case .checkFailed: "check_failed"
        case .state(let state): "state_\(state.rawValue)"
        }
    }

    public init?(name: String) {
        guard let role = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = role
    }
}
