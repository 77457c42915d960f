import OrderDomain
import OrderStore
import SafeText
import Terminal

/// The line at the bottom where `/` types a filter and `:` a command. A command's text
/// offers what it may become as it is typed (a command name or alias, then the id the
/// command takes), and Tab completes what the candidates share.
struct Prompt {
    enum Kind { case filter, command }

    let kind: Kind
    var editor: LineEditor
    /// What the `:` prompt's text may become, shown in the footer as you type.
    private(set) var suggestions: [String] = []

    init(_ kind: Kind, text: String = "") {
        self.kind = kind
        self.editor = LineEditor(text: text)
    }

    /// As the footer shows it: the prompt's sign and its text.
    var line: (String, String) { (kind == .filter ? "/" : ":", editor.text) }

    /// Tab: the text completed to the longest start every candidate shares.
    mutating func complete(_ session: ConsoleSession) async {
        let (prefix, last, candidates) = await Self.candidates(for: editor.text, session: session)
        editor.text = prefix + Self.sharedStart(of: candidates, else: last)
        suggestions = await Self.candidates(for: editor.text, session: session).candidates
    }

    /// Any other key edits the text; true when it changed.
    mutating func edit(_ key: Key, session: ConsoleSession) async -> Bool {
        guard editor.edit(key) else { return false }
        if kind == .command { suggestions = editor.text.isEmpty ? [] : await Self.candidates(for: editor.text, session: session).candidates }
        return true
    }

    /// What the `:` prompt's text may become: a command name (or alias) from its start, then
    /// the id the command takes (an order, an account, an original transaction).
    static func candidates(for text: String, session: ConsoleSession) async -> (prefix: String, last: String, candidates: [String]) {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.count == 1 {
            let names = ConsoleCommand.names + session.aliases.keys.sorted()
            return ("", text, names.filter { $0.hasPrefix(text) })
        }
        guard words.count == 2, !words[1].isEmpty, let kind = idKind(after: words[0]) else { return ("", text, []) }
        // A suggestion is a convenience: a store that does not answer now offers none.
        let found = (try? await session.store.orders.search(words[1], kind: kind, limit: 20)) ?? []
        let ids: [String] =
            switch kind {
            case .account: found.map(\.accountId)
            case .originalTransaction: found.compactMap(\.originalTransactionId)
            default: found.map(\.orderId)
            }
        return (words[0] + " ", words[1], Array(Set(ids.filter { $0.hasPrefix(words[1]) })).sorted())
    }

    /// The kind of id a `:` command takes, for completion.
    static func idKind(after command: String) -> IdKind? {
        switch ConsoleCommand.parse(command + " x") {
        case .success(.order): .order
        case .success(.account): .account
        case .success(.subscription), .success(.xray): .originalTransaction
        default: nil
        }
    }

    /// As many candidates as fit `width` cells, then "…" when some are left out.
    static func fitting(_ candidates: [String], width: Int) -> String {
        var shown = ""
        for candidate in candidates {
            let next = shown.isEmpty ? candidate : shown + "  " + candidate
            if TextWidth.of(next) > width - 3 { return shown + "  …" }
            shown = next
        }
        return shown
    }

    static func sharedStart(of candidates: [String], else fallback: String) -> String {
        guard var shared = candidates.first else { return fallback }
        for candidate in candidates.dropFirst() { while !candidate.hasPrefix(shared) { shared.removeLast() } }
        return candidates.count == 1 ? shared + " " : shared
    }
}
