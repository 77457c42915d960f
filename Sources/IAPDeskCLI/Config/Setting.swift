import AppStore
import ConfigFiles

/// One setting of iapdesk, declared once: where it stands in `iapdesk.toml`, its
/// environment variable, the form its value takes, what it means, and what it does to the
/// configuration (with its checks). The file's reader, the environment's, the list of
/// known keys (a typo is refused) and `iapdesk config --settings` all read these
/// declarations, so a setting cannot be checked one way in the file and another in the
/// environment. The declarations themselves are in `Settings.swift`.
struct Setting {
    /// The form of a value: the file holds it as TOML, the environment as text.
    enum Form {
        /// A string.
        case text
        /// A whole number of at least 1: a count or a duration.
        case count
        /// An array of strings; in the environment, comma-separated.
        case list
    }

    /// A value read in its setting's form.
    enum Value {
        case text(String)
        case count(Int64)
        case list([String])
    }

    /// Where a value was read, as an error names it: `apple.key_file` in a file, or the
    /// variable `IAPDESK_KEY_FILE`.
    struct Place {
        let name: String
        let file: String?
        var line: Int?

        func error(_ message: String) -> ConfigError { ConfigError(file: file, line: line, key: name, message) }
    }

    /// `[section]`, or nil for a variable the file has no key for.
    let section: String?
    let key: String?
    let variable: String?
    let form: Form
    /// What it means and what it defaults to, for `iapdesk config --settings`.
    let help: String
    let apply: (inout Configuration, Value, Place) throws -> Void

    /// `section.key` in the file; nil for a variable the file has no key for.
    var fileKey: String? { section.flatMap { section in key.map { "\(section).\($0)" } } }

    /// As an error names it: `section.key`, or the variable alone.
    var name: String { fileKey ?? variable ?? "" }

    /// A string, set as it is.
    static func text(_ section: String, _ key: String, _ variable: String?, _ help: String, _ path: WritableKeyPath<Configuration, String>) -> Setting {
        Setting(section: section, key: key, variable: variable, form: .text, help: help) { config, value, _ in
            if case .text(let text) = value { config[keyPath: path] = text }
        }
    }

    /// A string that is unset by default.
    static func text(_ section: String, _ key: String, _ variable: String?, _ help: String, _ path: WritableKeyPath<Configuration, String?>) -> Setting {
        Setting(section: section, key: key, variable: variable, form: .text, help: help) { config, value, _ in
            if case .text(let text) = value { config[keyPath: path] = text }
        }
    }

    /// A count or a duration (at least 1).
    static func count(_ section: String, _ key: String, _ variable: String, _ help: String, _ path: WritableKeyPath<Configuration, Int64>) -> Setting {
        Setting(section: section, key: key, variable: variable, form: .count, help: help) { config, value, _ in
            if case .count(let number) = value { config[keyPath: path] = number }
        }
    }

    /// A string with its own meaning: `apply` turns it into settings and checks it.
    static func text(
        _ section: String?, _ key: String?, _ variable: String?, _ help: String, apply: @escaping (inout Configuration, String, Place) throws -> Void
    ) -> Setting {
        Setting(section: section, key: key, variable: variable, form: .text, help: help) { config, value, place in
            if case .text(let text) = value { try apply(&config, text, place) }
        }
    }

    /// The path of a file holding one secret: the file is read, the path is never kept.
    static func secretFile(_ section: String, _ key: String, _ variable: String, _ help: String, _ path: WritableKeyPath<Configuration, Secret?>) -> Setting {
        text(section, key, variable, help) { config, file, place in
            config[keyPath: path] = try Configuration.secret(file: file, setting: place.name, in: place.file)
        }
    }

    /// Reads this setting's value from `[section]` of the file; nil when it is not there.
    func value(in reader: TOMLReader) throws -> Value? {
        guard let section, let key else { return nil }
        switch form {
        case .text: return try reader.string(section, key).map(Value.text)
        case .count: return try reader.positive(section, key).map(Value.count)
        case .list: return try reader.strings(section, key).map(Value.list)
        }
    }

    /// Reads this setting's value from its variable; nil when it is not set.
    func value(in environment: [String: String]) throws -> Value? {
        guard let variable, let text = environment[variable] else { return nil }
        switch form {
        case .text: return .text(text)
        case .count: return .count(try Configuration.number(text, variable))
        case .list: return .list(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
    }
}
