import Foundation

/// A fully built request: what a `Router` turns into, and what the engine sends.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    public var url: String
    public var headers: HTTPHeaders
    public var body: [UInt8]?

    public init(method: HTTPMethod = .get, url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Checks the URL parses and uses http or https, before anything is sent.
    func checked() throws(TransferError) -> HTTPRequest {
        guard let c = URLComponents(string: url), let scheme = c.scheme?.lowercased() else {
            throw TransferError(url: url, reason: .invalidURL)
        }
        guard scheme == "http" || scheme == "https" else {
            throw TransferError(url: url, reason: .unsupportedScheme(scheme))
        }
        guard let host = c.host, !host.isEmpty else { throw TransferError(url: url, reason: .invalidURL) }
        return self
    }
}
