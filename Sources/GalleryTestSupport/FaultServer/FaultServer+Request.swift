import Foundation

extension FaultServer {
    /// One request as the server received it, kept in the request log.
    public struct Request: Sendable {
        /// `GET`, `HEAD`, ...
        public let method: String
        /// The request target exactly as sent (path and query).
        public let target: String
        /// The path part of the target, percent-escapes left as sent.
        public let path: String
        /// The query without the `?`, or nil when there was none.
        public let query: String?
        /// `HTTP/1.1` or `HTTP/1.0`.
        public let version: String
        public let headers: Headers
        /// The body, read by its Content-Length (usually empty for GET).
        public let body: [UInt8]
        /// When the request head was fully received.
        public let arrival: Date
        /// Which TCP connection carried it (counts from 1 per server), to prove keep-alive reuse.
        public let connectionID: Int

        /// Whether the client asked to close after this exchange: HTTP/1.0 always does here,
        /// HTTP/1.1 only with `Connection: close`.
        public var wantsClose: Bool {
            if version != "HTTP/1.1" { return true }
            let tokens = (headers["Connection"] ?? "").lowercased().split(separator: ",")
            return tokens.contains { $0.trimmingCharacters(in: .whitespaces) == "close" }
        }
    }
}
