import ConfigFiles
import Foundation
import Terminal

/// Theme files: `themes/NAME.toml`, one table per role with `fg`, `bg` and `attrs`.
/// Colours are names (`red`, `bright_blue`, `default`), 256-colour indexes (`208`) or hex
/// (`#1c2b3a`); attributes are `bold`, `dim`, `underline`, `reverse`, `italic`.
///
/// ```toml
/// [header]
/// fg = "white"
/// bg = "#005f87"
/// attrs = ["bold"]
/// ```
public enum ThemeLoader {
    /// Where `--theme NAME` looks, in order: `IAPDESK_THEMES`, the user's config folder,
    /// `./themes`, and `themes/` of the checkout the executable was built in.
    public static func searchPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var folders: [String] = []
        if let custom = environment["IAPDESK_THEMES"] { folders.append(custom) }
        let config = environment["XDG_CONFIG_HOME"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
        folders.append(config + "/iapdesk/themes")
        folders.append(FileManager.default.currentDirectoryPath + "/themes")
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        // .build/<triple>/debug/iapdesk and .build/debug/iapdesk both sit under the checkout.
        for levels in [3, 4] {
            var url = executable
            for _ in 0..<levels { url.deleteLastPathComponent() }
            folders.append(url.appendingPathComponent("themes").path)
        }
        return folders
    }

    /// The theme `nameOrPath` names: a path to a `.toml` file, or a name looked up in `folders`.
    public static func load(_ nameOrPath: String, folders: [String] = searchPath()) throws -> Theme {
        if nameOrPath.hasSuffix(".toml") || nameOrPath.contains("/") {
            return try load(file: nameOrPath)
        }
        for folder in folders {
            let path = "\(folder)/\(nameOrPath).toml"
            if FileManager.default.fileExists(atPath: path) { return try load(file: path) }
        }
        if nameOrPath == Theme.builtIn.name { return .builtIn }
        let known = Set(
            folders.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? [] }
                .filter { $0.hasSuffix(".toml") }.map { String($0.dropLast(5)) }
        ).sorted()
        throw ConfigError(key: "theme", "no theme named \"\(nameOrPath)\"" + (known.isEmpty ? "" : "; there are: \(known.joined(separator: ", "))"))
    }

    /// The theme, or the built-in default and the error that says why not: the console
    /// always starts, and shows the message.
    public static func loadOrFallback(_ nameOrPath: String, folders: [String] = searchPath()) -> (Theme, ConfigError?) {
        do {
            return (try load(nameOrPath, folders: folders), nil)
        } catch let error as ConfigError {
            return (.builtIn, error)
        } catch {
            return (.builtIn, ConfigError(key: "theme", "\(error)"))
        }
    }

    public static func load(file path: String) throws -> Theme {
        try parse(TOMLReader(contentsOf: path), name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
    }

    public static func parse(_ text: String, file: String, name: String) throws -> Theme {
        try parse(TOMLReader(parsing: text, file: file), name: name)
    }

    private static func parse(_ reader: TOMLReader, name: String) throws -> Theme {
        try reader.onlyKeys([], tables: Set(ThemeRole.allCases.map(\.name)), in: nil)
        var theme = Theme(name: name, styles: Theme.builtIn.styles)
        for role in ThemeRole.allCases where reader.table[role.name] != nil {
            try reader.onlyKeys(["fg", "bg", "attrs"], in: role.name)
            var style = Style()
            if let fg = try reader.string(role.name, "fg") { style.foreground = try color(fg, reader, role.name, "fg") }
            if let bg = try reader.string(role.name, "bg") { style.background = try color(bg, reader, role.name, "bg") }
            for attribute in try reader.strings(role.name, "attrs") ?? [] {
                guard let parsed = attributes[attribute] else {
                    throw reader.error(role.name, "attrs", "unknown attribute \"\(attribute)\" (bold, dim, underline, reverse, italic)")
                }
                style.attributes.insert(parsed)
            }
            theme.styles[role] = style
        }
        return theme
    }

    static let attributes: [String: TextAttributes] = ["bold": .bold, "dim": .dim, "underline": .underline, "reverse": .reverse, "italic": .italic]

    static let names: [String: Int] = [
        "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7,
        "bright_black": 8, "grey": 8, "gray": 8, "bright_red": 9, "bright_green": 10, "bright_yellow": 11,
        "bright_blue": 12, "bright_magenta": 13, "bright_cyan": 14, "bright_white": 15,
    ]

    static func color(_ text: String, _ reader: TOMLReader, _ section: String, _ key: String) throws -> TerminalColor {
        let value = text.lowercased()
        if value == "default" { return .terminalDefault }
        if let index = names[value] { return .indexed(index) }
        if let index = Int(value), (0...255).contains(index) { return .indexed(index) }
        if value.hasPrefix("#"), value.count == 7, let rgb = UInt32(value.dropFirst(), radix: 16) {
            return .rgb(UInt8(rgb >> 16 & 0xFF), UInt8(rgb >> 8 & 0xFF), UInt8(rgb & 0xFF))
        }
        throw reader.error(section, key, "\"\(text)\" is not a colour (a name like red or bright_blue, 0–255, #rrggbb, or default)")
    }
}
