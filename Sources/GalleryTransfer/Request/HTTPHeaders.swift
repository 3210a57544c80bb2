import Foundation

/// Response or request header fields with case-insensitive lookup, keeping order and repeats.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}
    public init(dictionaryLiteral elements: (String, String)...) {
        for (n, v) in elements { add(n, v) }
    }
    public init(_ pairs: [String: String]) {
        for (n, v) in pairs.sorted(by: { $0.key < $1.key }) { add(n, v) }
    }

    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Sets a field, replacing every earlier field of the same name.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    public mutating func remove(_ name: String) {
        let lower = name.lowercased()
        fields.removeAll { $0.name.lowercased() == lower }
    }

    /// The last value of a field (servers that repeat a field mean the last one).
    public subscript(_ name: String) -> String? {
        let lower = name.lowercased()
        return fields.last { $0.name.lowercased() == lower }?.value
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
        a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// The status line and headers of one response, as parsed from libcurl's header callback.
public struct ResponseHead: Sendable, Equatable {
    public var status: Int
    public var headers: HTTPHeaders

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.headers = headers
    }

    /// Content-Length as a number, nil when absent or malformed.
    public var contentLength: Int64? {
        headers["Content-Length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The media type without parameters, lower-cased ("image/jpeg").
    public var mediaType: String? {
        guard let ct = headers["Content-Type"] else { return nil }
        let base = ct.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ct
        return base.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

/// Parses the raw header lines libcurl hands to CURLOPT_HEADERFUNCTION, one block per response (redirects and
/// 1xx responses each start a new block with their status line).
struct HeadParser {
    private(set) var head: ResponseHead?
    /// True once the blank line ending the current block was seen.
    private(set) var blockComplete = false

    /// Feeds one line; returns true when this line completed a header block.
    mutating func feed(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
        if trimmed.hasPrefix("HTTP/") {
            let parts = trimmed.split(separator: " ", maxSplits: 2)
            let status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            head = ResponseHead(status: status)
            blockComplete = false
            return false
        }
        if trimmed.isEmpty {
            guard head != nil else { return false }
            blockComplete = true
            return true
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return false }
        let name = String(trimmed[..<colon]).trimmingCharacters(in: .whitespaces)
        let value = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        head?.headers.add(name, value)
        return false
    }
}
