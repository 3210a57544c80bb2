import Foundation

/// Response or request header fields with case-insensitive lookup, keeping order and repeats.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order, names as given.
    public private(set) var fields: [(name: String, value: String)] = []

    /// No fields.
    public init() {}
    /// Fields from a literal, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (n, v) in elements { add(n, v) }
    }
    /// Fields from a dictionary (sorted by name, for a stable order).
    public init(_ pairs: [String: String]) {
        for (n, v) in pairs.sorted(by: { $0.key < $1.key }) { add(n, v) }
    }

    /// Appends a field, keeping others of the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Sets a field, replacing every earlier field of the same name.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field named `name` (case-insensitive).
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// The last value of a field (servers that repeat a field mean the last one).
    public subscript(_ name: String) -> String? {
        fields.last { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    /// Equal when the same fields (names and values) are in the same order.
    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
        a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// The status line and headers of one response, as parsed from libcurl's header callback.
public struct ResponseHead: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders

    /// A head with `status` and `headers`.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.headers = headers
    }

    /// Content-Length as a number, nil when absent or malformed (digits only: "-1" and "+5" are malformed).
    public var contentLength: Int64? {
        headers["Content-Length"].flatMap { ContentRange.position($0.asciiTrimmed) }
    }

    /// The media type without parameters, lower-cased ("image/jpeg").
    public var mediaType: String? {
        guard let ct = headers["Content-Type"] else { return nil }
        let base = ct.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ct
        return base.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

/// Parses the raw header lines libcurl hands to CURLOPT_HEADERFUNCTION, one block per response (redirects and
/// 1xx responses each start a new block with their status line). Works on bytes: this runs for every header
/// of every response, and Foundation's trimming was the largest user-space cost per small file.
struct HeadParser {
    private(set) var head: ResponseHead?
    /// True once the blank line ending the current block was seen.
    private(set) var blockComplete = false

    /// Feeds one raw line; returns true when this line completed a header block.
    mutating func feed(_ raw: UnsafeRawBufferPointer) -> Bool {
        var end = raw.count
        while end > 0 && (raw[end - 1] == 0x0A || raw[end - 1] == 0x0D) { end -= 1 }
        if end == 0 {
            guard head != nil else { return false }
            blockComplete = true
            return true
        }
        let line = UnsafeRawBufferPointer(rebasing: raw[0..<end])
        if end >= 5 && line[0] == 0x48 && line[1] == 0x54 && line[2] == 0x54 && line[3] == 0x50 && line[4] == 0x2F {
            // "HTTP/x.y NNN reason": the status is the three digits after the first space. Anything
            // else is 0, a status no caller accepts. (Found by fuzzing: a long digit run used to
            // overflow the accumulator and trap.)
            var status = 0
            if let space = line.firstIndex(of: 0x20) {
                var i = space + 1
                while i < end, i - space <= 3, (0x30...0x39).contains(line[i]) {
                    status = status * 10 + Int(line[i] - 0x30)
                    i += 1
                }
                if i - space != 4 || (i < end && line[i] != 0x20) { status = 0 }
            }
            head = ResponseHead(status: status)
            blockComplete = false
            return false
        }
        guard let colon = line.firstIndex(of: 0x3A) else { return false }
        let name = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[0..<colon]))
        let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
        head?.headers.add(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        return false
    }

    /// Drops spaces and tabs at both ends.
    static func trimmed(_ b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var lo = 0
        var hi = b.count
        while lo < hi && (b[lo] == 0x20 || b[lo] == 0x09) { lo += 1 }
        while hi > lo && (b[hi - 1] == 0x20 || b[hi - 1] == 0x09) { hi -= 1 }
        return UnsafeRawBufferPointer(rebasing: b[lo..<hi])
    }
}

extension String {
    /// ASCII case-insensitive equality without allocating lower-cased copies.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (0x61...0x7A).contains(x | 0x20))
        }
    }

    /// Spaces and tabs trimmed at both ends (no Foundation).
    var asciiTrimmed: String {
        let u = Array(utf8)
        var lo = 0
        var hi = u.count
        while lo < hi && (u[lo] == 0x20 || u[lo] == 0x09) { lo += 1 }
        while hi > lo && (u[hi - 1] == 0x20 || u[hi - 1] == 0x09) { hi -= 1 }
        return lo == 0 && hi == u.count ? self : String(decoding: u[lo..<hi], as: UTF8.self)
    }
}
