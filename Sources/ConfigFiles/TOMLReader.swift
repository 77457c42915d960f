import Foundation
import TOMLKit

/// Typed reads from a parsed TOML table with errors that name the file, line and key.
/// TOMLKit keeps no positions for values, so the line is found in the text.
public struct TOMLReader {
    public let table: TOMLTable
    public let text: String
    public let file: String

    /// Parses `text`; a syntax error names the file and line.
    public init(parsing text: String, file: String) throws {
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw ConfigError(file: file, line: error.source.begin.line, error.description)
        }
        self.text = text
        self.file = file
    }

    /// Reads and parses the file at `path`.
    public init(contentsOf path: String) throws {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ConfigError(file: path, "cannot read: \(error.localizedDescription)")
        }
        try self.init(parsing: text, file: path)
    }

    /// The tables at the top level, in file order is not kept by TOML; sorted by name.
    public var tableNames: [String] { table.keys.filter { table[$0]?.table != nil }.sorted() }

    public func string(_ section: String, _ key: String) throws -> String? {
        guard let value = table[section]?.table?[key] else { return nil }
        guard let string = value.string else { throw error(section, key, "expected a string") }
        return string
    }

    public func int(_ section: String, _ key: String) throws -> Int? {
        guard let value = table[section]?.table?[key] else { return nil }
        guard let int = value.int, int >= 0 else { throw error(section, key, "expected a non-negative integer") }
        return int
    }

    /// A count or a duration: a whole number of at least 1, as its environment variable is
    /// checked too.
    public func positive(_ section: String, _ key: String) throws -> Int64? {
        guard let int = try int(section, key) else { return nil }
        guard int >= 1 else { throw error(section, key, "a whole number of at least 1, not \(int)") }
        return Int64(int)
    }

    /// Unknown keys are typos that would silently do nothing: refuse them. Keys in
    /// `refusing` are secrets, which never belong in the file.
    /// An array of strings (`attrs = ["bold", "underline"]`).
    public func strings(_ section: String, _ key: String) throws -> [String]? {
        guard let value = table[section]?.table?[key] else { return nil }
        guard let array = value.array else { throw error(section, key, "expected an array of strings") }
        var strings: [String] = []
        for element in array {
            guard let string = element.string else { throw error(section, key, "expected an array of strings") }
            strings.append(string)
        }
        return strings
    }

    /// `[section.sub]` as names to strings (`[console.aliases]`); nil when absent.
    public func strings(_ section: String, table sub: String) throws -> [String: String]? {
        guard let value = table[section]?.table?[sub] else { return nil }
        guard let inner = value.table else { throw error(section, sub, "expected a table [\(section).\(sub)]") }
        var strings: [String: String] = [:]
        for key in inner.keys {
            guard let string = inner[key]?.string else { throw error("\(section).\(sub)", key, "expected a string") }
            strings[key] = string
        }
        return strings
    }

    /// `[[key]]` entries as text fields (a number as its digits), in file order.
    public func records(_ key: String) throws -> [[String: String]] {
        guard let value = table[key] else { return [] }
        guard let array = value.array else { throw error(nil, key, "expected [[\(key)]] entries") }
        return try array.enumerated().map { index, element in
            guard let entry = element.table else { throw error(nil, "\(key)[\(index + 1)]", "expected a table") }
            var fields: [String: String] = [:]
            for field in entry.keys {
                if let text = entry[field]?.string {
                    fields[field] = text
                } else if let number = entry[field]?.int {
                    fields[field] = String(number)
                } else if let number = entry[field]?.double {
                    fields[field] = String(number)
                } else {
                    throw error(nil, "\(key)[\(index + 1)].\(field)", "expected a string or a number")
                }
            }
            return fields
        }
    }

    public func onlyKeys(_ keys: Set<String>, tables: Set<String> = [], in section: String?, refusing secrets: Set<String> = []) throws {
        let scope: TOMLTable
        if let section {
            guard let value = table[section] else { return }
            guard let sub = value.table else { throw error(nil, section, "expected a table [\(section)]") }
            scope = sub
        } else {
            scope = table
        }
        for key in scope.keys {
            if secrets.contains(key) {
                throw error(
                    section, key,
                    "secrets are read from files or environment variables, never from the configuration file; use \(key)_file or IAPDESK_\(key.uppercased())")
            }
            if tables.contains(key) { continue }
            guard keys.contains(key) else { throw error(section, key, "unknown setting") }
        }
    }

    /// An error at `section.key`, with the line it is set on.
    public func error(_ section: String?, _ key: String, _ message: String) -> ConfigError {
        ConfigError(file: file, line: line(of: key, in: section), key: section.map { "\($0).\(key)" } ?? key, message)
    }

    /// The line where `key` is set inside `[section]` (1-based), if it can be found.
    public func line(of key: String, in section: String?) -> Int? {
        var current: String?
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                current = line.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
                if section == nil, current == key { return number + 1 }
                continue
            }
            if current == section, line.hasPrefix(key), line.dropFirst(key.count).trimmingCharacters(in: .whitespaces).hasPrefix("=") {
                return number + 1
            }
        }
        return nil
    }
}
