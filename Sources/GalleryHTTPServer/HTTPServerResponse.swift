/// One answer: a status, header fields and a body. The server adds `Server`, `Date`, `Content-Length`
/// (unless given, as a HEAD answer gives the length of the body it leaves out) and `Connection: close`
/// when the connection ends after it.
public struct HTTPServerResponse: Sendable {
    /// Where the body comes from.
    public enum Body: Sendable {
        case none
        case bytes([UInt8])
        /// `count` bytes of the file at `path` from `offset`, sent by the kernel (sendfile).
        case file(path: String, offset: Int64, count: Int)

        public var count: Int {
            switch self {
            case .none: 0
            case .bytes(let bytes): bytes.count
            case .file(_, _, let count): count
            }
        }
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .none) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A body of `text` as UTF-8 with its content type.
    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPServerResponse {
        HTTPServerResponse(status: status, headers: [("Content-Type", contentType)], body: .bytes(Array(text.utf8)))
    }

    /// The first field named `name` (case-insensitive); setting replaces every field of that name (nil removes them).
    public subscript(header name: String) -> String? {
        get { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
        set {
            headers.removeAll { $0.name.lowercased() == name.lowercased() }
            if let newValue { headers.append((name, newValue)) }
        }
    }

    /// Whether this status never carries a body (1xx, 204, 304).
    public var forbidsBody: Bool { status < 200 || status == 204 || status == 304 }

    /// The status line and header block, ending in the empty line.
    func head(serverName: String, date: String, closing: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(HTTPStatusText.reason(status))\r\nServer: \(serverName)\r\nDate: \(date)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !forbidsBody && self[header: "Content-Length"] == nil { text += "Content-Length: \(body.count)\r\n" }
        if closing { text += "Connection: close\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }
}

/// Reason phrases for the statuses the servers send.
enum HTTPStatusText {
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
