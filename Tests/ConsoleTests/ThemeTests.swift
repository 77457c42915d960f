import ConfigFiles
import Foundation
import OrderDomain
import OrderStore
import Terminal
import TestSupport
import Testing

@testable import Console

@Suite("Themes")
struct ThemeTests {
    /// The repository's top-level `themes/` folder.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("themes").path

    @Test("Every shipped theme loads and styles every role itself", arguments: ["default", "light", "high-contrast", "mono"])
    func shippedThemes(name: String) throws {
        let theme = try ThemeLoader.load(name, folders: [Self.folder])
        let text = try String(contentsOfFile: "\(Self.folder)/\(name).toml", encoding: .utf8)
        for role in ThemeRole.allCases { #expect(text.contains("[\(role.name)]"), "\(name) leaves out \(role.name)") }
        #expect(theme.name == name)
    }

    @Test("default.toml spells out the built-in fallback exactly")
    func defaultMatchesBuiltIn() throws {
        #expect(try ThemeLoader.load("default", folders: [Self.folder]) == Theme.builtIn)
    }

    @Test("Colours as names, indexes and hex; attributes; roles left out keep the default")
    func parsesColours() throws {
        let theme = try ThemeLoader.parse(
            """
            [header]
            fg = "bright_white"
            bg = "#1c2b3a"
            attrs = ["bold", "underline"]

            [state_delivered]
            fg = "34"
            """, file: "t.toml", name: "t")
        #expect(theme[.header] == Style(foreground: .indexed(15), background: .rgb(0x1c, 0x2b, 0x3a), attributes: [.bold, .underline]))
        #expect(theme[.state(.delivered)].foreground == .indexed(34))
        #expect(theme[.selectedRow] == Theme.builtIn[.selectedRow])
    }

    @Test(
        "A broken theme names the file, line and key",
        arguments: [
            ("[header]\nfg = \"purple-ish\"\n", 2, "header.fg"),
            ("[header]\nattrs = [\"blink\"]\n", 2, "header.attrs"),
            ("[header]\ncolour = \"red\"\n", 2, "header.colour"),
            ("[heder]\nfg = \"red\"\n", 1, "heder"),
            ("[header]\nfg = \"300\"\n", 2, "header.fg"),
        ])
    func brokenTheme(text: String, line: Int, key: String) {
        do {
            _ = try ThemeLoader.parse(text, file: "broken.toml", name: "broken")
            Issue.record("accepted a broken theme")
        } catch let error as ConfigError {
            #expect(error.file == "broken.toml")
            #expect(error.line == line)
            #expect(error.key == key)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("A syntax error names its line; the console falls back to the built-in default and says why")
    func fallback() throws {
        let path = Scratch.url("iapdesk-theme-\(UUID().uuidString).toml").path
        try "[header]\nfg = \"red\"\n[row\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (theme, error) = ThemeLoader.loadOrFallback(path)
        #expect(theme == Theme.builtIn)
        #expect(error?.file == path && error?.line == 3)
    }

    @Test("An unknown theme name lists the ones there are")
    func unknownName() {
        let (_, error) = ThemeLoader.loadOrFallback("solarized", folders: [Self.folder])
        #expect(error?.description.contains("high-contrast") == true)
        #expect(error?.description.contains("mono") == true)
    }
}
