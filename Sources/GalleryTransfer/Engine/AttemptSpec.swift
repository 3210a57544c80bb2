import CCurl

/// Everything one libcurl attempt needs: the request plus the limits that apply to this attempt.
struct AttemptSpec: Sendable {
    var url: String
    var method: HTTPMethod = .get
    var headers: [(String, String)] = []
    var body: [UInt8]?
    var userAgent: String
    /// Whole-attempt timeout, already shortened to what is left of the transfer's deadline.
    var timeoutMilliseconds: Int
    var connectTimeoutMilliseconds: Int
    var lowSpeedLimit: Int
    var lowSpeedSeconds: Int
    /// ``TransferConfiguration/endsBodiesThatCannotFinish``.
    var endsBodiesThatCannotFinish = false
    var maxBodyBytes: Int64
    var maxRedirects: Int
    /// Check the first body bytes for an image signature before handing them on.
    var sniffImage: Bool = false
    /// A PEM file of CA certificates to trust instead of the system's, for https.
    var caCertificatesPath: String?
    /// Checked on every new connection's address.
    var addressPolicy: AddressPolicy = .unrestricted
    /// Refuse link-local addresses whatever `addressPolicy` says (``TransferConfiguration/allowsLinkLocal``).
    var refusesLinkLocal = false
    /// Sign with SigV4 (libcurl computes the signature).
    var awsSignature: AWSSignature?
    /// Whether libcurl follows redirects itself; off when the engine's resolver is on (the engine follows
    /// them, resolving each new host through the resolver).
    var followRedirects = true
    /// `CURLOPT_RESOLVE` lines ("host:port:addr,addr"): libcurl connects there without resolving.
    var resolveEntries: [String] = []
    /// The engine's resolver finds this transfer's addresses: libcurl keeps its DNS cache entries without
    /// pruning them after the transfer (``CurlShares`` bounds that cache).
    var addressesFromResolver = false
    /// For a redirect hop the engine follows: the class of the first hop's address, so the address
    /// policy's origin rule holds across hops as it does within one libcurl transfer.
    var redirectOrigin: AddressClass?
}

/// What the sink says when the final 2xx header block is complete.
enum SinkStart {
    /// Accept the body; `sniff` false turns image sniffing off (e.g. an appended range is mid-file).
    case accept(sniff: Bool)
    case abort(TransferError.Reason)
}

/// Receives the body of a 2xx response on the multi-loop thread. Implementations buffer in memory or
/// write part files; returning a reason aborts the transfer with it.
protocol BodySink: AnyObject {
    func begin(_ head: ResponseHead) -> SinkStart
    func write(_ bytes: UnsafeRawBufferPointer) -> TransferError.Reason?
    /// Bytes held before this attempt's body (a resumed prefix), for progress.
    var progressBase: Int64 { get }
    /// The whole body's size when known, for progress.
    var expectedTotal: Int64? { get }
}

/// Timing and protocol facts of one attempt, from curl_easy_getinfo.
public struct AttemptMetrics: Sendable, Equatable {
    /// Seconds from start until the TCP (and TLS) connection was ready; 0 on a reused connection.
    public var connectTime: Double = 0
    /// Seconds from start until the first response byte.
    public var timeToFirstByte: Double = 0
    /// Seconds from the start to the last byte.
    public var totalTime: Double = 0
    /// Body bytes received on the wire by libcurl in this attempt.
    public var downloadedBytes: Int64 = 0
    /// "1.0", "1.1", "2", "3" or "?"
    public var httpVersion: String = "?"
    /// New connections this attempt opened (0 means a kept-alive connection was reused).
    public var newConnections: Int = 0
    /// Redirects followed.
    public var redirects: Int = 0
    /// The IP address the last connection of the attempt went to (CURLINFO_PRIMARY_IP), if any.
    public var primaryIP: String?

    /// All zero.
    public init() {}

    init(_ easy: EasyHandle) {
        connectTime = Double(easy.info(offset: CURLINFO_CONNECT_TIME_T)) / 1e6
        timeToFirstByte = Double(easy.info(offset: CURLINFO_STARTTRANSFER_TIME_T)) / 1e6
        totalTime = Double(easy.info(offset: CURLINFO_TOTAL_TIME_T)) / 1e6
        downloadedBytes = easy.info(offset: CURLINFO_SIZE_DOWNLOAD_T)
        newConnections = easy.info(long: CURLINFO_NUM_CONNECTS)
        redirects = easy.info(long: CURLINFO_REDIRECT_COUNT)
        primaryIP = easy.info(string: CURLINFO_PRIMARY_IP).flatMap { $0.isEmpty ? nil : $0 }
        switch easy.info(long: CURLINFO_HTTP_VERSION) {
        case Int(CURL_HTTP_VERSION_1_0): httpVersion = "1.0"
        case Int(CURL_HTTP_VERSION_1_1): httpVersion = "1.1"
        case Int(CURL_HTTP_VERSION_2_0): httpVersion = "2"
        case Int(CURL_HTTP_VERSION_3): httpVersion = "3"
        default: httpVersion = "?"
        }
    }
}

/// The raw result of one attempt, before retry policy and validation look at it.
struct AttemptOutcome: Sendable {
    var code: CURLcode
    var curlMessage: String?
    /// The final response head (after redirects), nil when no response arrived.
    var head: ResponseHead?
    /// Set when our own callbacks stopped the transfer (cap, sniffing, disk error, cancel).
    var abortReason: TransferError.Reason?
    /// Decoded body bytes handed to the sink in this attempt.
    var bodyBytes: Int64
    /// Up to 64 KB of a non-2xx body, for error messages and JSON error payloads.
    var errorBody: [UInt8]
    var effectiveURL: String?
    var metrics: AttemptMetrics
}
