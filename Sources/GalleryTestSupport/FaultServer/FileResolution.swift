import Foundation

/// Resolves a `.file` response against one request: conditional GETs and byte ranges, the way
/// a well-behaved origin server does (RFC 9110 sections 13 and 14). Pure, so it is easy to read
/// beside the RFC.
enum FileResolution {
    static func resolve(_ file: FaultServer.FileRepresentation, base: FaultServer.Response,
                        for request: FaultServer.Request) -> FaultServer.Response {
        var response = base
        let length = file.bytes.count
        var headers = base.headers
        if !headers.contains("Content-Type") { headers.set("Content-Type", file.contentType) }
        if let etag = file.etag { headers.set("ETag", etag) }
        if let lastModified = file.lastModified { headers.set("Last-Modified", FaultServer.httpDate(lastModified)) }
        if !file.ignoringRange { headers.set("Accept-Ranges", "bytes") }

        func answer(_ status: Int, _ body: ArraySlice<UInt8>) -> FaultServer.Response {
            response.status = status
            response.headers = headers
            response.body = Array(body)
            return response
        }

        if notModified(file, request) {
            headers.set("Content-Type", nil)
            return answer(304, [])
        }
        guard !file.ignoringRange, let rangeHeader = request.headers["Range"],
              let range = parseRange(rangeHeader), ifRangeHolds(file, request) else {
            return answer(200, file.bytes[...])
        }
        switch range {
        case .from(let start, let end):
            guard start < length else {
                headers.set("Content-Range", "bytes */\(length)")
                return answer(416, [])
            }
            let last = min(end ?? (length - 1), length - 1)
            headers.set("Content-Range", "bytes \(start)-\(last)/\(length)")
            return answer(206, file.bytes[start...last])
        case .suffix(let count):
            guard count > 0, length > 0 else {
                headers.set("Content-Range", "bytes */\(length)")
                return answer(416, [])
            }
            let start = max(0, length - count)
            headers.set("Content-Range", "bytes \(start)-\(length - 1)/\(length)")
            return answer(206, file.bytes[start...])
        }
    }

    enum ByteRange: Equatable {
        case from(Int, Int?)
        case suffix(Int)
    }

    /// One `bytes=` range. Multiple ranges and malformed values give nil: the server then sends
    /// the whole file, which RFC 9110 allows (a server may ignore Range).
    static func parseRange(_ header: String) -> ByteRange? {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes=") else { return nil }
        let spec = value.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let second = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let count = Int(second), count >= 0 else { return nil }
            return .suffix(count)
        }
        guard let start = Int(first), start >= 0 else { return nil }
        if second.isEmpty { return .from(start, nil) }
        guard let end = Int(second), end >= start else { return nil }
        return .from(start, end)
    }

    /// If-Range: an entity tag must match strongly (a weak tag never matches); a date must equal
    /// Last-Modified exactly. No If-Range at all means the range applies.
    static func ifRangeHolds(_ file: FaultServer.FileRepresentation, _ request: FaultServer.Request) -> Bool {
        guard let condition = request.headers["If-Range"]?.trimmingCharacters(in: .whitespaces) else {
            return true
        }
        if condition.hasPrefix("\"") || condition.hasPrefix("W/") {
            guard let etag = file.etag, !etag.hasPrefix("W/") else { return false }
            return condition == etag
        }
        guard let date = FaultServer.parseHTTPDate(condition), let lastModified = file.lastModified else {
            return false
        }
        return Int(date.timeIntervalSince1970) == Int(lastModified.timeIntervalSince1970.rounded(.down))
    }

    /// If-None-Match (weak comparison, `*` matches any) wins over If-Modified-Since.
    static func notModified(_ file: FaultServer.FileRepresentation, _ request: FaultServer.Request) -> Bool {
        if let condition = request.headers["If-None-Match"] {
            guard let etag = file.etag else { return false }
            let tags = condition.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return tags.contains("*") || tags.contains { opaque($0) == opaque(etag) }
        }
        if let since = request.headers["If-Modified-Since"], let date = FaultServer.parseHTTPDate(since),
           let lastModified = file.lastModified {
            return Int(lastModified.timeIntervalSince1970.rounded(.down)) <= Int(date.timeIntervalSince1970)
        }
        return false
    }

    private static func opaque(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }
}
