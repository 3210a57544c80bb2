/// Limits and policies of a `TransferEngine`. Defaults suit a batch of image downloads.
public struct TransferConfiguration: Sendable {
    /// Transfers running at once across all hosts.
    public var maxConcurrentTransfers = 16
    /// Transfers running at once against one host (host:port).
    public var maxConcurrentPerHost = 6
    /// Seconds allowed to establish a connection.
    public var connectTimeout: Double = 10
    /// A transfer slower than `lowSpeedLimit` bytes/s for `lowSpeedWindow` seconds is aborted (and retried).
    public var lowSpeedLimit = 1024
    /// The window, in seconds, over which `lowSpeedLimit` is measured.
    public var lowSpeedWindow = 15
    /// Seconds one transfer may take across all of its attempts and backoff waits, from its admission.
    public var deadline: Double = 300
    /// How failed attempts are retried.
    public var retry = RetryPolicy()
    /// At most this many redirects are followed.
    public var maxRedirects = 5
    /// The largest body accepted, counted after Content-Encoding decoding.
    public var maxBodyBytes: Int64 = 256 * 1024 * 1024
    /// Downloads smaller than this stay in memory and are written once (no sidecar); larger ones spill to
    /// a resumable `.part` file with a sidecar. A SIGKILL loses at most this much per running transfer.
    public var memoryBufferLimit = 256 * 1024
    /// fsync part files, sidecars and the final file before renaming (off: a crash may lose recent bytes,
    /// but never leaves a complete-looking file that is not complete).
    public var durable = false
    /// Headers sent with every request unless the request sets them.
    public var defaultHeaders: HTTPHeaders = ["Accept": "*/*"]
    /// Sent as User-Agent; honest by default.
    public var userAgent = CurlRuntime.userAgent
    /// A PEM file of CA certificates to trust for https instead of the system's store (a private CA, a
    /// test server's self-signed certificate). Certificates and host names are always verified.
    public var caCertificatesPath: String?
    /// Receivers of progress and completion events.
    public var observers: [any TransferObserver] = []

    /// The defaults: 16 transfers, 6 per host, 5 attempts, 300 s deadline, 256 MiB body cap.
    public init() {}
}
