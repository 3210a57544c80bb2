/// Named lists of processing options (imgproxy's presets): `--preset NAME=OPTIONS` or
/// `IMGPROXY_PRESETS=NAME=OPTIONS,NAME=OPTIONS`, with the options separated by `/`
/// (`thumb=rs:fill:300:300/q:70`). A preset named `default` applies to every request first.
public struct Presets: Sendable, Hashable {
    /// Each preset's option segments, as written.
    public private(set) var definitions: [String: [String]] = [:]

    public init() {}

    /// Adds `NAME=OPTIONS`; throws naming the definition when it has no name or no options.
    public mutating func add(_ definition: String) throws(ServeError) {
        guard let equals = definition.firstIndex(of: "=") else {
            throw .badRequest("preset '\(definition)' is not NAME=OPTIONS")
        }
        let name = String(definition[..<equals]).trimmingCharacters(in: .whitespaces)
        let options = definition[definition.index(after: equals)...].split(separator: "/").map(String.init)
        guard !name.isEmpty, !options.isEmpty else { throw .badRequest("preset '\(definition)' needs a name and options") }
        // Parse now, so a bad preset stops the service at start, not on the first request that names it.
        var probe = ProcessingOptions()
        for segment in options {
            if segment.hasPrefix("pr:") || segment.hasPrefix("preset:") {
                throw .badRequest("preset '\(name)' names another preset; presets cannot nest")
            }
            try OptionParser.apply(segment, to: &probe, presets: Presets(), depth: 1)
        }
        definitions[name] = options
    }

    /// Presets from imgproxy's `IMGPROXY_PRESETS` value (comma-separated definitions).
    public mutating func add(imgproxyList: String) throws(ServeError) {
        for definition in imgproxyList.split(separator: ",") where !definition.trimmingCharacters(in: .whitespaces).isEmpty {
            try add(String(definition))
        }
    }
}

extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}

extension Set where Element == Character {
    static let whitespaces: Set<Character> = [" ", "\t", "\n", "\r"]
}
