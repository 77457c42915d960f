/// What an operator may do. Roles live in the store, never on the command line.
public enum Role: String, Sendable, CaseIterable, Codable, Comparable {
    case viewer, support, admin

    public var mayAct: Bool { self != .viewer }
    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }
}

/// Who is acting: an operator (the OS user) with the role the store gave them, or the
/// rules themselves (`system`) when a state changes automatically.
public struct Operator: Sendable, Equatable, Codable {
    public var name: String
    public var role: Role
    public var isSystem: Bool

    public init(name: String, role: Role) {
        self.name = name
        self.role = role
        self.isSystem = false
    }

    /// The rules: automatic state changes are audited under this name.
    public static let system = Operator(systemNamed: "system")

    private init(systemNamed name: String) {
        self.name = name
        self.role = .admin
        self.isSystem = true
    }

    package var auditRole: AuditRole { isSystem ? .rule : AuditRole(role) }
}

/// The role an audit entry records: an operator's role then, or `rule` for the store's own
/// decisions. Stored as ``rawValue``.
public enum AuditRole: String, Sendable, CaseIterable, Codable {
    case viewer, support, admin, rule

    public init(_ role: Role) {
        switch role {
        case .viewer: self = .viewer
        case .support: self = .support
        case .admin: self = .admin
        }
    }
}
