import Foundation

/// One encoded answer as the result cache keeps it: the bytes and what a later request needs to
/// serve them without the source (its type, ETag, the source's version and when it was checked).
struct StoredResult: Sendable {
    struct Header: Codable, Sendable {
        /// `image/webp`, ...
        var contentType: String
        /// The response's entity tag, quoted.
        var etag: String
        /// The source's validator when rendered (`etag:"..."`, `modified:...`, `file:MTIME:SIZE`), or nil.
        var sourceValidator: String?
        /// When the source was last fetched or revalidated (seconds since 1970).
        var checked: Double
    }

    var header: Header
    var body: [UInt8]

    /// `[header length, 4 bytes little-endian][JSON header][body]`.
    func encoded() -> [UInt8] {
        let json = (try? JSONEncoder().encode(header)).map { [UInt8]($0) } ?? []
        let length = UInt32(json.count)
        return [UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 24)] + json + body
    }

    /// Reads ``encoded()``'s layout back; nil for anything else (a torn or foreign file).
    init?(encoded bytes: [UInt8]) {
        guard bytes.count >= 4 else { return nil }
        let length = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
        guard 4 + length <= bytes.count,
              let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[4..<(4 + length)])) else { return nil }
        self.header = header
        body = Array(bytes[(4 + length)...])
    }

    init(header: Header, body: [UInt8]) {
        self.header = header
        self.body = body
    }
}
