/// Describes an endpoint as a value: typically an enum whose cases are the API's endpoints, each turning
/// into a method, a path below `baseURL`, parameters and headers.
///
/// ```swift
/// enum PhotoAPI: Router {
///     case page(Int)
///     var baseURL: String { "http://127.0.0.1:8080" }
///     var path: String { "/photos" }
///     var parameters: RequestParameters { if case .page(let n) = self { .query(["page": "\(n)"]) } else { .none } }
/// }
/// ```
public protocol Router: Sendable {
    var baseURL: String { get }
    var method: HTTPMethod { get }
    var path: String { get }
    var parameters: RequestParameters { get }
    var headers: HTTPHeaders { get }
}

extension Router {
    /// GET by default.
    public var method: HTTPMethod { .get }
    /// No parameters by default.
    public var parameters: RequestParameters { .none }
    /// No extra headers by default.
    public var headers: HTTPHeaders { HTTPHeaders() }

    /// Builds the request: base URL + path, then the parameters in their encoding.
    public func asRequest() throws(TransferError) -> HTTPRequest {
        var base = baseURL
        if base.hasSuffix("/") && path.hasPrefix("/") { base.removeLast() }
        let joined = path.isEmpty || path.hasPrefix("/") || base.hasSuffix("/") ? base + path : base + "/" + path
        var request = HTTPRequest(method: method, url: joined, headers: headers)
        try parameters.encode(into: &request)
        return try request.checked()
    }
}
