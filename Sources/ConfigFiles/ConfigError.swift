/// A configuration problem, naming the file, line and key where there is one.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var file: String?
    public var line: Int?
    public var key: String?
    public var message: String

    public init(file: String? = nil, line: Int? = nil, key: String? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        var place = file ?? "configuration"
        if let line { place += ":\(line)" }
        if let key { place += " (\(key))" }
        return "\(place): \(message)"
    }
}
