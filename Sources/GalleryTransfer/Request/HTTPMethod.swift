/// The HTTP methods a router may use.
public enum HTTPMethod: String, Sendable {
    case get = "GET", head = "HEAD", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
}
