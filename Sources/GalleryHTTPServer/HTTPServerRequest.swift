import Foundation

/// One HTTP/1.1 request as the server read it: the request line and the header fields (the body, which no
/// route here takes, is read and dropped).
public struct HTTPServerRequest: Sendable {
    /// `GET`, `HEAD`, ... as sent.
    public let method: String
    /// The request target as sent: `/photos?page=2`.
    public let target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    public let version: String
    /// The header fields in the order sent, names as sent.
    public let headers: [(name: String, value: String)]

    public init(method: String, target: String, version: String = "HTTP/1.1", headers: [(name: String, value: String)] = []) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    /// The target's path, still percent-encoded: `/photos`.
    public var path: String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        return String(target[..<mark])
    }

    /// The target's query without the `?`, or nil.
    public var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }

    public var isHead: Bool { method == "HEAD" }

    /// The first field named `name` (case-insensitive), or nil.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every field named `name` (case-insensitive), in order.
    public func headerValues(_ name: String) -> [String] {
        let name = name.lowercased()
        return headers.filter { $0.name.lowercased() == name }.map(\.value)
    }

    /// Every value of the query parameter `name` (the key compared as sent, each value percent-decoded).
    public func queryValues(_ name: String) -> [String] {
        guard let query else { return [] }
        return query.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == name else { return nil }
            let value = parts.count > 1 ? parts[1] : ""
            return String(value).removingPercentEncoding ?? String(value)
        }
    }

    /// The first value of the query parameter `name`, or nil.
    public func queryValue(_ name: String) -> String? { queryValues(name).first }

    /// `text` without the spaces and tabs around it.
    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    var keepsAlive: Bool {
        let tokens = headerValues("Connection").flatMap { $0.lowercased().split(separator: ",") }
            .map { Self.trimmed($0) }
        if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
        return !tokens.contains("close")
    }
}
