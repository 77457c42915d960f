import Foundation
import OrderDomain

/// A `postgres://` URL taken apart as libpq reads it, with one host or several
/// (`postgres://iapdesk@db1:5432,db2:5432/iap?target_session_attrs=read-write`): Foundation's
/// URL parser refuses a host list. Percent-escapes in the user, password and database are decoded.
struct PostgresURL: Equatable {
    struct Host: Equatable {
        var name: String
        var port: Int
    }

    var user: String?
    var password: String?
    var hosts: [Host]
    var database: String?
    var query: [URLQueryItem]

    /// Nil for what is not a PostgreSQL URL with at least one host.
    init?(_ url: String) {
        guard let scheme = ["postgres://", "postgresql://"].first(where: url.hasPrefix) else { return nil }
        let rest = url.dropFirst(scheme.count)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let userinfo = authority[..<at]
            let (user, password) =
                userinfo.firstIndex(of: ":").map { (userinfo[..<$0], Optional(userinfo[userinfo.index(after: $0)...])) } ?? (userinfo, nil)
            self.user = user.isEmpty ? nil : String(user).removingPercentEncoding ?? String(user)
            self.password = password.map { String($0).removingPercentEncoding ?? String($0) }
            authority = authority[authority.index(after: at)...]
        }
        var hosts: [Host] = []
        for entry in authority.split(separator: ",", omittingEmptySubsequences: false) {
            // `[::1]:5432`, `db1:5432` or `db1`.
            var name = Substring(entry)
            var port = 5432
            if let colon = entry.lastIndex(of: ":"), !entry[colon...].contains("]") {
                guard let number = Int(entry[entry.index(after: colon)...]) else { return nil }
                port = number
                name = entry[..<colon]
            }
            name = name.hasPrefix("[") && name.hasSuffix("]") ? name.dropFirst().dropLast() : name
            guard !name.isEmpty else { return nil }
            hosts.append(Host(name: String(name), port: port))
        }
        guard !hosts.isEmpty else { return nil }
        self.hosts = hosts
        var tail = rest[authorityEnd...]
        var query: Substring = ""
        if let mark = tail.firstIndex(of: "?") {
            query = tail[tail.index(after: mark)...]
            tail = tail[..<mark]
        }
        let database = tail.drop { $0 == "/" }
        self.database = database.isEmpty ? nil : String(database).removingPercentEncoding ?? String(database)
        self.query = URLComponents(string: "x://h?" + query)?.queryItems ?? []
    }

    func value(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The URL with its password replaced by `***`, for the header and logs.
    var redacted: String {
        let who = user.map { ($0.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? $0) + (password == nil ? "" : ":***") + "@" } ?? ""
        let where_ = hosts.map { ($0.name.contains(":") ? "[\($0.name)]" : $0.name) + ":\($0.port)" }.joined(separator: ",")
        let path = database.map { "/" + ($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0) } ?? ""
        let items = query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        return "postgres://" + who + where_ + path + (items.isEmpty ? "" : "?" + items)
    }
}
