/// A fully built request: what a `Router` turns into, and what the engine sends.
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The http(s) URL.
    public var url: String
    /// Request headers (the engine's defaults are added unless set here).
    public var headers: HTTPHeaders
    /// The body, if any.
    public var body: [UInt8]?
    /// Which addresses this request (and its redirects) may connect to.
    public var addressPolicy: AddressPolicy
    /// A lower body cap for this request than the engine's `maxBodyBytes` (e.g. a JSON page that has no
    /// business being large, so a gzip bomb stops at a few megabytes instead of hundreds); nil: the engine's.
    public var maxBodyBytes: Int64?
    /// Hand a 429 answer (headers and body) back to the caller instead of retrying it: for API clients that
    /// read the service's own rate-limit headers and throttle messages (see GalleryKit's `SourceClient`).
    public var returnsRateLimitedAnswers = false
    /// Sign with AWS Signature Version 4 (S3 and compatible stores); see ``AWSSignature`` for the headers
    /// and the query form the caller must supply.
    public var awsSignature: AWSSignature?
    /// Looks at the final 2xx response's headers before any body byte is read: a returned text stops the
    /// transfer with `.refusedByHeaders(text)`, never retried (e.g. an X-Robots-Tag opt-out: the image is not
    /// even downloaded). Called on the engine's thread: keep it quick.
    public var headCheck: (@Sendable (HTTPHeaders) -> String?)?
    /// Write a 2xx body larger than the spool's limit to its file instead of holding it in memory (the
    /// response's ``DataResponse/spooledPath``); nil: every body in memory.
    public var spool: BodySpool?

    /// A request; GET without a body by default, any address allowed unless `addressPolicy` says otherwise.
    public init(method: HTTPMethod = .get, url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]? = nil,
                addressPolicy: AddressPolicy = .unrestricted) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.addressPolicy = addressPolicy
    }

    /// Checks the URL parses and uses http or https, before anything is sent.
    func checked() throws(TransferError) -> HTTPRequest {
        guard let parts = URLParts(url) else { throw TransferError(url: url, reason: .invalidURL) }
        guard parts.scheme == "http" || parts.scheme == "https" else {
            throw TransferError(url: url, reason: .unsupportedScheme(parts.scheme))
        }
        guard !parts.authority.isEmpty, !parts.authority.hasPrefix(":") else {
            throw TransferError(url: url, reason: .invalidURL)
        }
        return self
    }
}
