/// Why the service could not answer with an image: the HTTP status to send and a message that
/// names the URL, option or file and the reason. The one error type of the service layer.
public struct ServeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status code (400, 403, 404, 413, 415, 422, 502, 504, 500, 503).
    public var status: Int
    /// What went wrong, for the response body and the access log.
    public var message: String

    /// An error answered with `status`.
    public init(status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status): \(message)" }

    static func badRequest(_ message: String) -> ServeError { ServeError(status: 400, message) }
    static func forbidden(_ message: String) -> ServeError { ServeError(status: 403, message) }
    static func notFound(_ message: String) -> ServeError { ServeError(status: 404, message) }
}
