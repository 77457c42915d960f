import OrderDomain
import SQLKit

extension Notes {
    /// Writes a note on an order or an account (support and admins; audited as
    /// `note.add` with the text as its reason, so the log reads what was written).
    ///
    /// - Throws: `StoreError/forbidden(action:role:)` for a viewer,
    ///   `StoreError/reasonRequired(action:)` for an empty note, `StoreError/invalid(_:)`
    ///   past `Note/maxLength` characters, `StoreError/notFound(kind:id:)` for an order
    ///   or account the store does not know.
    @discardableResult
    public func add(to target: Note.Target, text: String, by actor: Operator, at now: Millis = .now()) async throws -> Note {
        try store.requireOperator(actor, may: .writeNotes, reason: text)
        guard text.count <= Note.maxLength else { throw StoreError.invalid(.noteTooLong(max: Note.maxLength)) }
        return try await store.write(as: actor, now: now) { tx in
            let known: SQLQueryString =
                switch target {
                case .order(let id): "SELECT 1 AS found FROM orders WHERE order_id = \(bind: id)"
                case .account(let id): "SELECT 1 AS found FROM orders WHERE account_id = \(bind: id) LIMIT 1"
                }
            guard try await tx.sql.row(known) != nil else { throw StoreError.notFound(kind: target.kind, id: target.id) }
            guard
                let id = try await tx.sql.row(
                    """
                    INSERT INTO notes (target_kind, target_id, author, at, text)
                    VALUES (\(bind: target.kind.rawValue), \(bind: target.id), \(bind: actor.name), \(bind: now), \(bind: text)) RETURNING id
                    """)?.int64("id")
            else { throw StoreError.corrupt("the database kept a note without an id") }
            tx.audit(.noteAdd, target: target.auditTarget, reason: text, .note(id: id))
            return Note(id: id, target: target, author: actor.name, at: now, text: text)
        }
    }

    /// The notes on an order or an account, oldest first.
    public func list(on target: Note.Target, limit: Int = 200) async throws -> [Note] {
        try await store.read { sql in
            try await sql.rows(
                "SELECT \(unsafeRaw: Note.Column.list) FROM notes WHERE target_kind = \(bind: target.kind.rawValue) AND target_id = \(bind: target.id) ORDER BY id LIMIT \(literal: limit)"
            ).map(Note.init(row:))
        }
    }
}

extension Note: StoredRecord {
    enum Column: String, TableColumn {
        case targetId = "target_id", id, targetKind = "target_kind", author, at, text
    }

    init(_ row: Columns<Column>) throws {
        let targetId = try row.string(.targetId)
        self.init(
            id: try row.int64(.id), target: try row.string(.targetKind) == "account" ? .account(targetId) : .order(targetId),
            author: try row.string(.author), at: try row.int64(.at), text: try row.string(.text))
    }
}
