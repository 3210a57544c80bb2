/// When ``S3Client/putFile(key:path:contentType:cacheControl:ifNoneMatch:)`` splits an upload, and how.
/// S3 takes parts of at least 5 MiB (but the last) and at most 10,000 parts; the part size grows
/// past `partSize` when a file would need more.
public struct S3MultipartPolicy: Sendable, Equatable {
    /// Files of this many bytes or more go up in parts (default 16 MiB).
    public var threshold: Int64
    /// The size of each part but the last (default 8 MiB, at least 5 MiB).
    public var partSize: Int64
    /// Parts uploaded at once for one file (default 4).
    public var partsInFlight: Int

    /// S3's smallest part but the last.
    public static let minimumPartSize: Int64 = 5 << 20
    /// S3's most parts in one upload.
    public static let maximumParts: Int64 = 10_000

    /// A policy; `partSize` is raised to 5 MiB, `partsInFlight` to 1.
    public init(threshold: Int64 = 16 << 20, partSize: Int64 = 8 << 20, partsInFlight: Int = 4) {
        self.threshold = max(1, threshold)
        self.partSize = max(Self.minimumPartSize, partSize)
        self.partsInFlight = max(1, partsInFlight)
    }

    /// The part size for a file of `size` bytes: `partSize`, or more when that would make too many parts.
    func partSize(forFileOf size: Int64) -> Int64 {
        max(partSize, (size + Self.maximumParts - 1) / Self.maximumParts)
    }
}
