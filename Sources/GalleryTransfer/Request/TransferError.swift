/// The one error of the transfer layer: what failed (`reason`), where (`url`), after how many attempts, with the
/// final HTTP status if one arrived and libcurl's own message (CURLOPT_ERRORBUFFER) when libcurl failed.
public struct TransferError: Error, Sendable, CustomStringConvertible {
    /// Why a transfer failed. Cases carry the detail a user needs to act on.
    public enum Reason: Sendable, Equatable {
        /// The URL could not be parsed or has no host.
        case invalidURL
        /// Only http and https are allowed, for the first request and every redirect.
        case unsupportedScheme(String)
        /// A redirect pointed at a scheme we refuse (e.g. file://).
        case redirectRefused
        /// More than the allowed number of redirects (a loop).
        case tooManyRedirects(limit: Int)
        /// Could not resolve or connect.
        case connectionFailed
        /// The engine's resolver found no address for the host: the class (NXDOMAIN, no address, server
        /// failure, no answer) and the resolver asked. Not retried: the resolver has tried already.
        case nameResolution(ResolveFailure)
        /// The request's `AddressPolicy` refused the address a connection would have gone to (never retried).
        case addressRefused(AddressRefusal)
        /// The per-transfer deadline or the connect timeout passed.
        case timedOut
        /// Fewer than the configured bytes per second arrived over the low-speed window.
        case tooSlow(bytesPerSecond: Int, seconds: Int)
        /// The body comes fast enough for the low-speed limit, but at its speed so far the rest of its
        /// declared length would arrive well after the deadline (a stream, a huge file on a slow link).
        case cannotFinishInTime(bytesPerSecond: Int, bytesLeft: Int64, secondsLeft: Int)
        /// The body ended before its declared length (cut connection, lying Content-Length, cut chunked body).
        case truncatedBody(received: Int64, expected: Int64?)
        /// The server's answer is not usable HTTP (garbage, HTTP/0.9, conflicting lengths, endless headers).
        case invalidResponse(String)
        /// The server's TLS certificate could not be verified (untrusted, expired, wrong host) or the CA file
        /// is unusable. Not retried: another attempt meets the same certificate.
        case tlsVerificationFailed
        /// Some other network or protocol failure reported by libcurl.
        case network(code: Int)
        /// A final HTTP status outside what the caller accepts (after retries for retryable ones).
        case httpStatus(Int)
        /// A status other than 429 whose body says the client is rate limited (a 403 "rate limit exceeded",
        /// as GitHub-style and some photo APIs answer): retried after the wait, like a 429.
        case rateLimited(status: Int)
        /// The response's media type is not one the caller accepts.
        case unacceptableContentType(String?)
        /// The body (after Content-Encoding decoding) or its declared Content-Length exceeds the cap.
        case bodyTooLarge(limit: Int64, declared: Int64?)
        /// The caller expected an image but the first bytes are not JPEG, PNG, GIF or WebP; `prefix` says
        /// what they are instead (`HTML text ("<!DOCTYPE ht")`). Retried: a captive portal or a login wall
        /// may let the next attempt through.
        case notAnImage(prefix: String)
        /// The response could not be decoded as the requested type.
        case decodingFailed(String)
        /// A local file operation failed (path and errno text).
        case fileSystem(path: String, message: String)
        /// A partial download could not be continued with the server's answer (changed file, bad range); the
        /// partial was discarded and the download asked again from the start.
        case resumeRejected(String)
        /// The request's `headCheck` refused the response's headers; the text says why.
        case refusedByHeaders(String)
        /// The calling task was cancelled.
        case cancelled
        /// The engine was shut down.
        case engineStopped
    }

    /// The URL the transfer was for.
    public var url: String
    /// What went wrong.
    public var reason: Reason
    /// The final HTTP status, if a response arrived.
    public var status: Int?
    /// Attempts made.
    public var attempts: Int
    /// libcurl's message for this failure (error buffer, else curl_easy_strerror), if libcurl failed.
    public var curlMessage: String?

    /// Creates an error.
    public init(url: String, reason: Reason, status: Int? = nil, attempts: Int = 1, curlMessage: String? = nil) {
        self.url = url
        self.reason = reason
        self.status = status
        self.attempts = attempts
        self.curlMessage = curlMessage
    }

    /// Whether another attempt may succeed (connection trouble, cut bodies, timeouts, 408/429/5xx gateways,
    /// a page where an image was expected).
    public var isRetryable: Bool {
        switch reason {
        case .connectionFailed, .timedOut, .tooSlow, .truncatedBody, .network, .notAnImage, .rateLimited: return true
        case .httpStatus(let s): return RetryPolicy.retryableStatuses.contains(s)
        default: return false
        }
    }

    /// One line: the URL, the reason, the status, the attempts and libcurl's message.
    public var description: String {
        var text = "\(url): \(reasonText)"
        if let status, !reasonText.contains("HTTP \(status)") { text += " (HTTP \(status))" }
        if attempts > 1 { text += " after \(attempts) attempts" }
        if let curlMessage, !curlMessage.isEmpty { text += " [libcurl: \(curlMessage)]" }
        return text
    }

    /// A short human sentence for the reason.
    public var reasonText: String {
        switch reason {
        case .invalidURL: return "invalid URL"
        case .unsupportedScheme(let s): return "scheme '\(s)' not allowed (http and https only)"
        case .redirectRefused: return "redirect to a non-http(s) URL refused"
        case .tooManyRedirects(let n): return "more than \(n) redirects"
        case .connectionFailed: return "could not connect"
        case .nameResolution(let failure): return failure.description
        case .addressRefused(let refusal): return refusal.description
        case .timedOut: return "timed out"
        case .tooSlow(let bps, let s): return "slower than \(bps) B/s for \(s) s"
        case .cannotFinishInTime(let bps, let left, let seconds):
            return "too slow to finish in time: \(left) bytes left at \(bps) B/s, \(seconds) s before the deadline"
        case .truncatedBody(let r, let e):
            return "body cut short: \(r) bytes" + (e.map { " of \($0)" } ?? "")
        case .invalidResponse(let why): return "invalid response: \(why)"
        case .tlsVerificationFailed: return "TLS certificate not verified" + (tlsCause.map { ": " + $0 } ?? "")
        case .network(let code): return "network error (curl code \(code))"
        case .httpStatus(let s): return "HTTP \(s)"
        case .rateLimited(let s): return "HTTP \(s): rate limit exceeded"
        case .unacceptableContentType(let t): return "unacceptable content type \(t ?? "(none)")"
        case .bodyTooLarge(let limit, let declared):
            return "body larger than the \(limit)-byte cap" + (declared.map { " (declared \($0))" } ?? "")
        case .notAnImage(let p): return "not an image: the body is \(p)"
        case .decodingFailed(let m): return "decoding failed: \(m)"
        case .fileSystem(let path, let m): return "file error on \(path): \(m)"
        case .resumeRejected(let why): return "resume rejected: \(why)"
        case .refusedByHeaders(let why): return why
        case .cancelled: return "cancelled"
        case .engineStopped: return "engine stopped"
        }
    }
}

extension TransferError {
    /// The AI opt-out that refused the response (``OptOutGate``), as the item's message
    /// (`opted_out: X-Robots-Tag noai`); nil for any other failure.
    public var optOut: String? {
        if case .refusedByHeaders(let why) = reason, OptOutGate.isOptOut(why) { return why }
        return nil
    }

    /// Whether the server said "too many requests": a 429, or another status whose body says so.
    public var isRateLimit: Bool {
        switch reason {
        case .httpStatus(429), .rateLimited: true
        default: false
        }
    }

    /// The reason for a final non-2xx status: `.rateLimited` for a 403 whose body says "rate limit"
    /// (or "too many requests"), else `.httpStatus`.
    static func statusReason(_ status: Int, body: [UInt8]) -> Reason {
        guard status == 403, !body.isEmpty else { return .httpStatus(status) }
        let text = String(decoding: body.prefix(4096), as: UTF8.self).lowercased()
        let phrases = ["rate limit", "rate-limit", "ratelimit", "too many requests", "request was throttled"]
        return phrases.contains { text.contains($0) } ? .rateLimited(status: status) : .httpStatus(status)
    }

    /// Which check a TLS certificate failed, read from libcurl's message (OpenSSL's wording), so the line a
    /// user sees says what to fix: nil when the message names none of them.
    var tlsCause: String? {
        guard let message = curlMessage?.lowercased() else { return nil }
        if message.contains("expired") { return "the server's certificate has expired" }
        if message.contains("not yet valid") { return "the server's certificate is not valid yet" }
        if message.contains("subject name") || message.contains("does not match") || message.contains("host name") {
            return "the certificate is not for this host name"
        }
        if message.contains("self-signed") || message.contains("self signed") || message.contains("issuer")
            || message.contains("unknown ca") {
            return "the certificate is not signed by a trusted CA"
        }
        return nil
    }
}
