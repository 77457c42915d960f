/// Makes a string from data safe to put on a terminal (the Security article).
///
/// Ids, product names and JSON values come from players and from Apple; a raw ESC in
/// an account id could clear the operator's screen, retitle the window or hide text.
/// Every control character (C0, DEL, C1), and every bidi override or isolate, becomes a
/// visible escape such as `\x1B` or `\u{202E}`; everything else is kept, CJK included.
public enum Sanitizer {
    public static func sanitize(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F, 0x80...0x9F:
                out += "\\x" + hex(scalar.value, width: 2)
            case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C:
                out += "\\u{" + hex(scalar.value, width: 4) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// True when `sanitize` would change nothing (the common case; lets callers skip work).
    public static func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: isUnsafe)
    }

    /// Encoded JSON made safe for a terminal: every control, DEL, C1 and bidi character
    /// inside its strings becomes `\uXXXX`, which any JSON reader turns back into the
    /// same character. The encoder's own line breaks (pretty printing) stay.
    public static func jsonEscaped(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0 != "\n" && isUnsafe($0) }) else { return json }
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            if scalar != "\n" && isUnsafe(scalar) {
                out += "\\u" + hex(scalar.value, width: 4)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// What `sanitize` replaces: controls (C0, DEL, C1) and bidi overrides and isolates.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: true
        default: false
        }
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
