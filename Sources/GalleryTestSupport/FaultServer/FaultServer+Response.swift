import Foundation

extension FaultServer {
    /// What a route answers: status, headers, body, plus the faults to inject while sending.
    ///
    /// Build one with a helper (`.file`, `.status`, `.redirect`, `.html`) and chain modifiers
    /// (`.cut(afterBodyBytes:)`, `.stall(...)`, ...). A `.file` response is resolved against the
    /// request (Range, If-Range, If-None-Match) when it is sent, so one value serves every attempt.
    public struct Response: Sendable {
        public var status: Int
        public var headers: Headers
        public var body: [UInt8]
        /// Set for `.file`: the whole representation, resolved per request.
        var file: FileRepresentation?
        var faults = Faults()

        public init(status: Int, headers: Headers = Headers(), body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// The representation behind a `.file` response.
    struct FileRepresentation: Sendable {
        var bytes: [UInt8]
        var etag: String?
        var lastModified: Date?
        var contentType: String
        var ignoringRange: Bool
    }

    /// Misbehaviours applied while the response is written.
    struct Faults: Sendable {
        /// Close the connection after this many body bytes, keeping the declared length.
        var cutAfter: Int?
        /// Pause for `seconds` after `after` body bytes, then carry on.
        var stall: (after: Int, seconds: Double)?
        /// Pause for `seconds` before sending anything at all.
        var stallBeforeHeaders: Double?
        /// Pace the body at about this rate.
        var bytesPerSecond: Int?
        /// Send no Content-Length; the body ends when the connection closes.
        var omitContentLength = false
        /// Declare this Content-Length whatever the body is.
        var declaredContentLength: Int?
        /// Compress the (resolved) body and say `Content-Encoding: gzip`.
        var gzip = false
        /// Send the body with `Transfer-Encoding: chunked`.
        var chunked = false
        /// Close the connection without sending a byte.
        var dropConnection = false
        /// Abort with a TCP reset (SO_LINGER 0) after this many body bytes.
        var resetAfter: Int?
        /// After the status line, send header fields forever (until the client gives up).
        var endlessHeaders = false
        /// Send these bytes instead of a response, then close.
        var raw: [UInt8]?
        /// SO_SNDBUF for the connection before the response goes out (the kernel doubles it).
        var sendBuffer: Int?
    }
}

// MARK: - Helpers

extension FaultServer.Response {
    /// A static file honouring `Range` (`bytes=N-`, `bytes=N-M`, `bytes=-S`) with 206 and
    /// Content-Range, `If-Range` (strong ETag or HTTP date; a mismatch sends the full 200),
    /// 416 with `Content-Range: bytes */LEN` for an unsatisfiable start, and `If-None-Match` /
    /// `If-Modified-Since` with 304. With `ignoringRange` it always sends the full 200 and no
    /// `Accept-Ranges`, like servers that do not support resuming.
    public static func file(
        _ bytes: [UInt8], etag: String? = nil, lastModified: Date? = nil,
        contentType: String = "application/octet-stream", ignoringRange: Bool = false
    ) -> Self {
        var response = Self(status: 200)
        response.file = FaultServer.FileRepresentation(
            bytes: bytes, etag: etag, lastModified: lastModified, contentType: contentType,
            ignoringRange: ignoringRange)
        return response
    }

    /// `.file` for `Data`.
    public static func file(
        _ data: Data, etag: String? = nil, lastModified: Date? = nil,
        contentType: String = "application/octet-stream", ignoringRange: Bool = false
    ) -> Self {
        file([UInt8](data), etag: etag, lastModified: lastModified, contentType: contentType,
             ignoringRange: ignoringRange)
    }

    /// Any status with the given headers and body. A `Content-Length` in `headers` is sent as
    /// given (even a 50 GB one over a short body); otherwise the body length is declared.
    public static func status(_ code: Int, headers: [String: String] = [:], body: [UInt8] = []) -> Self {
        Self(status: code, headers: FaultServer.Headers(headers), body: body)
    }

    /// `.status` with a UTF-8 text body.
    public static func status(_ code: Int, headers: [String: String] = [:], text: String) -> Self {
        status(code, headers: headers, body: Array(text.utf8))
    }

    /// A redirect to any string, unchecked (e.g. `file:///etc/passwd` or a relative path).
    public static func redirect(to location: String, status: Int = 302) -> Self {
        Self(status: status, headers: ["Location": location], body: [])
    }

    /// Exactly these bytes instead of a response (garbage, HTTP/0.9, a broken status line,
    /// interim 1xx heads...), then the connection closes.
    public static func raw(_ bytes: [UInt8]) -> Self {
        var response = Self(status: 0)
        response.faults.raw = bytes
        return response
    }

    /// An HTML page served under an image content type, to test content sniffing.
    public static func html(
        _ markup: String = "<!DOCTYPE html><html><body><h1>Not an image</h1></body></html>\n",
        contentType: String = "image/jpeg", status: Int = 200
    ) -> Self {
        Self(status: status, headers: ["Content-Type": contentType], body: Array(markup.utf8))
    }
}

// MARK: - Modifiers

extension FaultServer.Response {
    /// Keeps the declared Content-Length but closes the connection after `n` body bytes.
    public func cut(afterBodyBytes n: Int) -> Self {
        var copy = self
        copy.faults.cutAfter = max(0, n)
        return copy
    }

    /// Sends `n` body bytes, then holds the connection silent for `seconds`, then carries on.
    /// Use a long stall to hang a client; `stop()` ends it at once.
    public func stall(afterBodyBytes n: Int, seconds: Double) -> Self {
        var copy = self
        copy.faults.stall = (max(0, n), seconds)
        return copy
    }

    /// Sends through a socket send buffer of about `bytes` (SO_SNDBUF; the kernel doubles it) instead of
    /// loopback's autotuned megabytes, so `bodyBytesSent` of a client that stops reading stays near its
    /// receive window instead of including what this side's kernel would have queued.
    public func sendBuffer(_ bytes: Int) -> Self {
        var copy = self
        copy.faults.sendBuffer = max(1024, bytes)
        return copy
    }

    /// Waits `seconds` before sending the status line (a server slow to answer).
    public func stallBeforeHeaders(seconds: Double) -> Self {
        var copy = self
        copy.faults.stallBeforeHeaders = seconds
        return copy
    }

    /// Paces the body at about `bytesPerSecond`, in ten slices per second.
    public func trickle(bytesPerSecond: Int) -> Self {
        var copy = self
        copy.faults.bytesPerSecond = max(1, bytesPerSecond)
        return copy
    }

    /// Omits Content-Length: the body is delimited by closing the connection.
    public func withoutContentLength() -> Self {
        var copy = self
        copy.faults.omitContentLength = true
        return copy
    }

    /// Declares `n` as Content-Length whatever the body length is (a lie); the connection is
    /// closed after the body so a short body ends the transfer early.
    public func declaringContentLength(_ n: Int) -> Self {
        var copy = self
        copy.faults.declaredContentLength = n
        return copy
    }

    /// Gzips the body on the way out and adds `Content-Encoding: gzip`. If the body is already
    /// a gzip stream (e.g. `FaultServer.gzipBomb`), use `.status(..., headers:
    /// ["Content-Encoding": "gzip"], body: bomb)` instead.
    public func gzipEncoded() -> Self {
        var copy = self
        copy.faults.gzip = true
        return copy
    }

    /// Sends the body with `Transfer-Encoding: chunked`.
    public func chunked() -> Self {
        var copy = self
        copy.faults.chunked = true
        return copy
    }

    /// Closes the connection without answering at all.
    public func droppingConnection() -> Self {
        var copy = self
        copy.faults.dropConnection = true
        return copy
    }

    /// Aborts the connection with a TCP reset (RST, not FIN) after `n` body bytes.
    public func reset(afterBodyBytes n: Int) -> Self {
        var copy = self
        copy.faults.resetAfter = max(0, n)
        return copy
    }

    /// Sends the status line, then header fields without end (up to 256 MiB), to test a
    /// client's header size limit.
    public func endlessHeaders() -> Self {
        var copy = self
        copy.faults.endlessHeaders = true
        return copy
    }

    /// Appends a header field, keeping existing ones of that name (e.g. two conflicting
    /// Content-Length fields).
    public func addingHeader(_ name: String, _ value: String) -> Self {
        var copy = self
        copy.headers.add(name, value)
        return copy
    }

    /// Adds (or replaces) one header.
    public func header(_ name: String, _ value: String) -> Self {
        var copy = self
        copy.headers.set(name, value)
        return copy
    }
}
