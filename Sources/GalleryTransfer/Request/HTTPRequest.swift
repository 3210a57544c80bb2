/// A fully built request: what a `Router` turns into, and what the engine sends.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    public var url: String
    public var headers: HTTPHeaders
    public var body: [UInt8]?
    /// Which addresses this request (and its redirects) may connect to.
    public var addressPolicy: AddressPolicy
    /// A lower body cap for this request than the engine's `maxBodyBytes` (e.g. a JSON page that has no
    /// business being large, so a gzip bomb stops at a few megabytes instead of hundreds); nil: the engine's.
    public var maxBodyBytes: Int64?

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
