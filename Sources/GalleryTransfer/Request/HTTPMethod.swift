/// The HTTP methods a router may use.
public enum HTTPMethod: String, Sendable {
    /// GET.
    case get = "GET"
    /// HEAD.
    case head = "HEAD"
    /// POST.
    case post = "POST"
    /// PUT.
    case put = "PUT"
    /// PATCH.
    case patch = "PATCH"
    /// DELETE.
    case delete = "DELETE"
}
