import Foundation

/// Limits and policies of a `TransferEngine`. Defaults suit a batch of image downloads.
public struct TransferConfiguration: Sendable {
    /// Transfers running at once across all hosts.
    public var maxConcurrentTransfers = 16
    /// Transfers running at once against one host (host:port).
    public var maxConcurrentPerHost = 6
    /// Hosts with limits of their own, by admission key (``hostKey(of:)``: "host:port" as the URL spells
    /// it, lower-cased): one's own object store taking many uploads at once while the photo hosts keep
    /// `maxConcurrentPerHost`. Such a host's transfers are held to its own cap only and are not counted in
    /// `maxConcurrentTransfers`, so the other hosts keep the whole of it (see ``HostLimit``).
    public var hostLimits: [String: HostLimit] = [:]
    /// Transfer loops: libcurl multi handles each driven by a thread of its own (see `Lane`). A loop's
    /// thread does the kernel's and libcurl's work of every transfer it carries, about 5% of the CPU of a
    /// whole job on small photos; the default, one per 8 cores and at least two, keeps any one of them
    /// far from being what a whole node waits on.
    public var transferLoops = max(2, ProcessInfo.processInfo.activeProcessorCount / 8)
    /// Requests started per second against one host (host:port), retries included, on top of the concurrency
    /// limits; nil (the default) sets no rate. A host that answers 429 (or 403 "rate limit exceeded") with a
    /// wait is paused for that wait either way.
    public var requestsPerSecondPerHost: Double?
    /// Leave loopback hosts (127.0.0.0/8, ::1, localhost: this machine, your own servers) out of
    /// `requestsPerSecondPerHost`.
    public var rateExemptsLoopback = false
    /// Seconds allowed to establish a connection.
    public var connectTimeout: Double = 10
    /// A transfer slower than `lowSpeedLimit` bytes/s for `lowSpeedWindow` seconds is aborted (and retried).
    public var lowSpeedLimit = 1024
    /// The window, in seconds, over which `lowSpeedLimit` is measured.
    public var lowSpeedWindow = 15
    /// Seconds one transfer may take across all of its attempts and backoff waits, from its admission.
    public var deadline: Double = 300
    /// End a body with a declared length once its speed over a `lowSpeedWindow` shows it would finish more
    /// than a quarter past the deadline, rather than at the deadline (``TransferError/Reason/cannotFinishInTime(bytesPerSecond:bytesLeft:secondsLeft:)``).
    /// Off by default: a resumable download keeps what it received for the next run, so reading on to the
    /// deadline is worth it; `dataset`, whose rows keep nothing of a body cut short, turns it on.
    public var endsBodiesThatCannotFinish = false
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
    /// Sent as User-Agent: by default the tool, its version, where to find it and the libcurl underneath
    /// (`fetch-gallery/0.1 (+https://github.com/fetch-gallery/fetch-gallery) libcurl/7.88.1`), as the
    /// photo services' API policies ask (Wikimedia refuses generic library agents).
    public var userAgent = TransferConfiguration.defaultUserAgent
    /// The default `userAgent`.
    public static var defaultUserAgent: String { CurlRuntime.userAgent }
    /// A PEM file of CA certificates to trust for https instead of the system's store (a private CA, a
    /// test server's self-signed certificate). Certificates and host names are always verified.
    public var caCertificatesPath: String?
    /// Connect to link-local addresses (169.254.0.0/16 with the cloud metadata service 169.254.169.254,
    /// fe80::/10, fd00:ec2::254). Off by default: a URL list is untrusted input, and on a cloud machine it
    /// could point the engine at the metadata service. Checked on the address of every connection, after
    /// DNS and after every redirect, whatever the request's ``AddressPolicy``.
    public var allowsLinkLocal = false
    /// Resolves host names ahead of each transfer and of each redirect (the engine then follows redirects
    /// itself); nil leaves resolving to libcurl (the system's getaddrinfo, per transfer). IP literals and
    /// `localhost` never go to the resolver.
    public var resolver: (any NameResolver)?
    /// Receivers of progress and completion events.
    public var observers: [any TransferObserver] = []

    /// The defaults: 16 transfers, 6 per host, 5 attempts, 300 s deadline, 256 MiB body cap.
    public init() {}

    /// The admission key of `url`: its "host:port" as spelled, lower-cased (the key of ``hostLimits``).
    public static func hostKey(of url: String) -> String { TransferEngine.hostKey(url) }
}
