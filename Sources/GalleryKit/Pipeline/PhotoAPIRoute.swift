import Foundation

/// The 500px-style endpoints as a transfer-layer ``Router``: base URL plus ``PhotoEndpoint``.
public struct PhotoAPIRoute: Router {
    public var base: URL
    public var endpoint: PhotoEndpoint

    public init(base: URL, endpoint: PhotoEndpoint) {
        self.base = base
        self.endpoint = endpoint
    }

    /// The whole URL comes from ``PhotoEndpoint/url(relativeTo:)``, which keeps a base path
    /// prefix and encodes the consumer key strictly.
    public var baseURL: String { endpoint.url(relativeTo: base).absoluteString }
    public var path: String { "" }
    public var headers: HTTPHeaders { ["Accept": "application/json"] }
}
