/// A file to fetch to disk.
public struct DownloadRequest: Sendable {
    /// The http(s) URL to fetch.
    public var url: String
    /// The final path; `PATH.part` and `PATH.part.meta` are used beside it while downloading.
    public var destination: String
    /// Extra request headers.
    public var headers: HTTPHeaders
    /// Reject bodies that do not start with a JPEG, PNG, GIF or WebP signature (whatever Content-Type says).
    public var expectImage: Bool
    /// fsync before publishing; nil uses the engine configuration.
    public var durable: Bool?
    /// Which addresses this download (and its redirects) may connect to.
    public var addressPolicy: AddressPolicy
    /// Return a body that arrived whole in memory unwritten, in ``DownloadResult/unpublished``, for the
    /// caller to publish where it uses the bytes (see ``UnpublishedDownload``). Off by default.
    public var leavesSmallBodyUnpublished = false
    /// Sign with AWS Signature Version 4 (a file of one's own S3 store); the caller sets
    /// `x-amz-content-sha256` in ``headers`` (see ``AWSSignature``).
    public var awsSignature: AWSSignature?
    /// The largest body accepted for this download, instead of the engine's `maxBodyBytes` (a file of
    /// one's own, such as a plan, that may be larger than any image); nil: the engine's.
    public var maxBodyBytes: Int64?
    /// The caller knows nothing is at ``destination`` or beside it (no file, no partial, no sidecar: its
    /// folder was empty when this process began): the first attempt does not look for a partial to resume.
    /// Later attempts look, for what the earlier ones kept.
    public var nothingOnDisk = false
    /// Called with the response's headers before any of the body is kept; a text aborts the download with
    /// `.refusedByHeaders(text)`, never retried, and nothing is written (an AI opt-out: ``OptOutGate``).
    public var headCheck: (@Sendable (HTTPHeaders) -> String?)?

    /// A download of `url` to `destination`.
    public init(url: String, destination: String, headers: HTTPHeaders = HTTPHeaders(), expectImage: Bool = false,
                durable: Bool? = nil, addressPolicy: AddressPolicy = .unrestricted) {
        self.addressPolicy = addressPolicy
        self.url = url
        self.destination = destination
        self.headers = headers
        self.expectImage = expectImage
        self.durable = durable
    }
}

/// A completed download.
public struct DownloadResult: Sendable {
    /// The URL fetched.
    public var url: String
    /// The file written.
    public var path: String
    /// Size of the file written.
    public var bytes: Int64
    /// Bytes that came from a partial left by an earlier attempt or process.
    public var resumedFrom: Int64
    /// Timings and byte counts over all attempts.
    public var metrics: TransferMetrics
    /// The body, when it is not written yet (``DownloadRequest/leavesSmallBodyUnpublished``): nothing is
    /// at ``path`` until it is published.
    public var unpublished: UnpublishedDownload?
}
