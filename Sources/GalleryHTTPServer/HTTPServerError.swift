import GallerySystem

/// The HTTP server's one error: it could not listen where asked.
public enum HTTPServerError: Error, Sendable, CustomStringConvertible {
    case cannotListen(host: String, port: Int, SystemError)

    public var description: String {
        switch self {
        case let .cannotListen(host, port, error): "cannot listen on \(host):\(port): \(error.call): \(error.message)"
        }
    }
}
