import GalleryHTTPServer

/// What the server knows about one representation, used to answer conditional and range requests.
struct RepresentationValidators: Sendable, Equatable {
    /// Body length in bytes.
    let length: Int
    /// A strong entity tag including its quotes, e.g. `"d1-4016000-2048-5f3a"`.
    let entityTag: String
    /// Last modification, whole seconds since 1970.
    let lastModified: Int

    var lastModifiedText: String { HTTPDate.format(epochSeconds: lastModified) }
}

/// The request headers that decide between 200, 206, 304 and 416.
struct ConditionalRequest: Sendable, Equatable {
    var range: String?
    var ifRange: String?
    var ifNoneMatch: String?
    var ifModifiedSince: String?
}

/// How to answer a GET or HEAD for one representation, decided per RFC 9110 §13.2.2 and §14.
///
/// A pure function of headers and validators, so every rule is unit-tested without a socket.
/// Written here rather than taken from Hummingbird's `FileMiddleware`, which (2.28.1) makes weak
/// ETags yet matches them in If-Range, reads `bytes=-N` as the first N+1 bytes instead of the
/// last N, and answers a range past the end with a bogus Content-Range instead of 416.
enum RangeDecision: Sendable, Equatable {
    /// 200 with the whole body.
    case full
    /// 206 with these bytes (inclusive, within the body).
    case partial(ClosedRange<Int>)
    /// 304, no body.
    case notModified
    /// 416 with `Content-Range: bytes */LENGTH`.
    case unsatisfiable

    static func decide(_ request: ConditionalRequest, for validators: RepresentationValidators) -> RangeDecision {
        // §13.2.2 step 3 and 4: If-None-Match, else If-Modified-Since.
        if let ifNoneMatch = request.ifNoneMatch {
            if EntityTags.weakMatch(ifNoneMatch, validators.entityTag) { return .notModified }
        } else if let since = request.ifModifiedSince.flatMap(HTTPDate.parse), validators.lastModified <= since {
            return .notModified
        }
        // §13.2.2 step 5: a Range is only honoured when If-Range (if any) still matches.
        guard let rangeHeader = request.range else { return .full }
        if let ifRange = request.ifRange, !ifRangeMatches(ifRange, validators) { return .full }
        switch ByteRangeSpec.parse(rangeHeader) {
        case nil:
            // §14.2: an unparsable Range (or several ranges, which we do not serve as
            // multipart/byteranges) is ignored, not an error.
            return .full
        case let spec?:
            guard let range = spec.resolve(length: validators.length) else { return .unsatisfiable }
            return .partial(range)
        }
    }

    /// §13.1.5: an entity tag must match strongly (a weak tag never matches); a date must equal
    /// Last-Modified exactly.
    private static func ifRangeMatches(_ value: String, _ validators: RepresentationValidators) -> Bool {
        let value = value.trimmingSpaces
        if value.hasPrefix("\"") || value.hasPrefix("W/") {
            return EntityTags.strongMatch(value, validators.entityTag)
        }
        return value == validators.lastModifiedText
    }
}

/// A single `bytes=` range as sent by the client, before the length is known.
enum ByteRangeSpec: Sendable, Equatable {
    /// `bytes=N-` or `bytes=N-M`.
    case from(Int, through: Int?)
    /// `bytes=-N`: the last N bytes.
    case suffix(Int)

    /// Parses one range; `nil` for other units, malformed text, `N-M` with M < N, or a list.
    static func parse(_ header: String) -> ByteRangeSpec? {
        let header = header.trimmingSpaces
        guard header.lowercased().hasPrefix("bytes=") else { return nil }
        let spec = header.dropFirst("bytes=".count).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit) else { return nil }
        if first.isEmpty {
            guard let count = Int(last) else { return nil }
            return .suffix(count)
        }
        guard let start = Int(first) else { return nil }
        if last.isEmpty { return .from(start, through: nil) }
        // Digits too long for Int mean "to the end" in practice; clamp rather than reject.
        let end = Int(last) ?? Int.max
        guard end >= start else { return nil }
        return .from(start, through: end)
    }

    /// The satisfiable byte range for a body of `length` bytes, or `nil` (416).
    func resolve(length: Int) -> ClosedRange<Int>? {
        switch self {
        case let .from(start, end):
            guard start < length else { return nil }
            return start...min(end ?? length - 1, length - 1)
        case let .suffix(count):
            guard count > 0, length > 0 else { return nil }
            return max(0, length - count)...(length - 1)
        }
    }
}

/// Entity-tag list matching (RFC 9110 §8.8.3.2).
enum EntityTags {
    static func weakMatch(_ list: String, _ tag: String) -> Bool {
        if list.trimmingSpaces == "*" { return true }
        return tags(in: list).contains { opaque($0) == opaque(tag) }
    }

    static func strongMatch(_ candidate: String, _ tag: String) -> Bool {
        let candidate = candidate.trimmingSpaces
        return !candidate.hasPrefix("W/") && !tag.hasPrefix("W/") && candidate == tag
    }

    private static func tags(in list: String) -> [Substring] {
        list.split(separator: ",").map { Substring($0.trimmingSpaces) }
    }

    private static func opaque<S: StringProtocol>(_ tag: S) -> Substring {
        let tag = Substring(tag)
        return tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
