import ArgumentParser

/// `HOST:PORT` as `--listen` takes it; port 0 picks a free one.
package struct ListenAddress: ExpressibleByArgument {
    package var host: String
    package var port: Int
    package var defaultValueDescription: String { "\(host):\(port)" }

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    package init?(argument: String) {
        guard let colon = argument.lastIndex(of: ":"), let port = Int(argument[argument.index(after: colon)...]),
            (0...65_535).contains(port), colon != argument.startIndex
        else { return nil }
        host = String(argument[..<colon])
        self.port = port
    }
}
