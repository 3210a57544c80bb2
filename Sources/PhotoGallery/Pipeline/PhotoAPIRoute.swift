import Foundation

/// The 500px-style endpoints as a transfer-layer `Router`: base URL plus ``PhotoEndpoint``.
public struct PhotoAPIRoute: Router {
    /// The API's base URL.
    public var base: URL
    /// Which endpoint, with its parameters.
    public var endpoint: PhotoEndpoint

    /// The route to `endpoint` under `base`.
    public init(base: URL, endpoint: PhotoEndpoint) {
        self.base = base
        self.endpoint = endpoint
    }

    /// The whole URL comes from ``PhotoEndpoint/url(relativeTo:)``, which keeps a base path
    /// prefix and encodes the consumer key strictly.
    public var baseURL: String { endpoint.url(relativeTo: base).absoluteString }
    /// Empty: ``baseURL`` already holds the whole endpoint URL.
    public var path: String { "" }
    /// The API answers JSON.
    public var headers: HTTPHeaders { ["Accept": "application/json"] }
}
