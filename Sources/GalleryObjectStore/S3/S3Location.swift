/// Where a gallery lives in object storage: `s3://BUCKET/PREFIX`. The prefix is empty or ends with
/// `/`, so ``key(_:)`` joins it with a gallery-relative path (`photos/a.jpg`).
public struct S3Location: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The bucket's name.
    public let bucket: String
    /// The key prefix: `""` or `gallery/2026/` (always ending in `/` when not empty).
    public let prefix: String

    /// A location from its parts; `prefix` gets its trailing `/` added.
    public init(bucket: String, prefix: String = "") throws(S3Error) {
        try self.init(bucket: bucket, prefix: prefix, text: "s3://\(bucket)/\(prefix)")
    }

    /// `text` is what the user wrote, for messages.
    private init(bucket: String, prefix: String, text: String) throws(S3Error) {
        try Self.checkBucket(bucket, text: text)
        let trimmed = prefix.drop { $0 == "/" }
        if trimmed.split(separator: "/", omittingEmptySubsequences: false).dropLast().contains(where: { $0.isEmpty }) {
            throw .invalidLocation(text, reason: "the prefix has an empty path segment ('//')")
        }
        self.bucket = bucket
        self.prefix = trimmed.isEmpty || trimmed.hasSuffix("/") ? String(trimmed) : trimmed + "/"
    }

    /// Parses `s3://BUCKET`, `s3://BUCKET/` or `s3://BUCKET/PREFIX`.
    public init(parsing text: String) throws(S3Error) {
        guard text.hasPrefix("s3://") else {
            throw .invalidLocation(text, reason: "it does not start with s3://")
        }
        let rest = text.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        try self.init(bucket: bucket, prefix: String(rest.dropFirst(bucket.count).dropFirst()), text: text)
    }

    /// `s3://bucket/prefix/`.
    public var description: String { "s3://\(bucket)/\(prefix)" }

    /// The key of `path` (relative to the gallery) under this location.
    public func key(_ path: String) -> String { prefix + path.drop { $0 == "/" } }

    /// S3's bucket naming rules: 3-63 characters of lower-case letters, digits, `.` and `-`, starting and
    /// ending with a letter or digit, no `..`, not an IP address.
    static func checkBucket(_ name: String, text: String) throws(S3Error) {
        if name.isEmpty { throw .invalidLocation(text, reason: "the bucket name is missing") }
        guard (3...63).contains(name.count) else {
            throw .invalidLocation(text, reason: "the bucket name '\(name)' must be 3 to 63 characters long")
        }
        let allowed = name.unicodeScalars.allSatisfy { c in
            ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "." || c == "-"
        }
        guard allowed else {
            throw .invalidLocation(text, reason: "the bucket name '\(name)' may hold only lower-case letters, digits, '.' and '-'")
        }
        guard let first = name.unicodeScalars.first, let last = name.unicodeScalars.last,
              first != "." && first != "-" && last != "." && last != "-", !name.contains("..") else {
            throw .invalidLocation(text, reason: "the bucket name '\(name)' must start and end with a letter or digit and hold no '..'")
        }
        if name.split(separator: ".").count == 4, name.split(separator: ".").allSatisfy({ UInt8($0) != nil }) {
            throw .invalidLocation(text, reason: "the bucket name '\(name)' must not be an IP address")
        }
    }
}
