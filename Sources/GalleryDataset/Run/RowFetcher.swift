import GalleryTransfer

/// Downloads one row's image through the project's engine (its per-host limits, retries and timeouts) and
/// words every failure as img2dataset does (urllib's texts), so scripts that count error messages keep working.
struct RowFetcher: Sendable {
    let engine: TransferEngine
    let userAgent: String
    /// The AI opt-out signals honoured (nil: none, `--ignore-opt-out all`).
    let optOut: OptOutGate?

    /// img2dataset's browser User-Agent, with `(compatible; TOKEN; +https://github.com/rom1504/img2dataset)`
    /// appended when a token is given.
    static func userAgent(token: String?) -> String {
        var text = "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:72.0) Gecko/20100101 Firefox/72.0"
        if let token, !token.isEmpty { text += " (compatible; \(token); +https://github.com/rom1504/img2dataset)" }
        return text
    }

    /// The body, or the `error_message` of a `failed_to_download` row. With `spool`, a body larger than its
    /// limit is written to its file (``RowBody/file(_:)``); the caller removes that file whatever the result.
    func fetch(_ url: String, spool: BodySpool? = nil) async -> Result<RowBody, FetchFailure> {
        if let refusal = Self.schemeRefusal(url) { return .failure(FetchFailure(message: refusal)) }
        var request = HTTPRequest(url: url, headers: ["User-Agent": userAgent])
        request.spool = spool
        if let optOut {
            switch await optOut.decide(url) {
            case .refused(let why): return .failure(FetchFailure(message: why))
            case .proceed(let headCheck): request.headCheck = headCheck
            }
        }
        do {
            let response = try await engine.request(request).validate().response()
            return .success(response.spooledPath.map(RowBody.file) ?? .memory(response.body))
        } catch {
            return .failure(FetchFailure(message: Self.message(for: error)))
        }
    }

    /// urllib's words for a URL it cannot fetch: no scheme, or one that is not http(s) (we fetch neither
    /// file:// nor ftp://, which urllib would).
    static func schemeRefusal(_ url: String) -> String? {
        guard let colon = url.firstIndex(of: ":"), url[url.index(after: colon)...].hasPrefix("//") else {
            return "unknown url type: '\(url)'"
        }
        let scheme = url[..<colon].lowercased()
        return scheme == "http" || scheme == "https" ? nil : "<urlopen error unknown url type: \(scheme)>"
    }

    /// The message img2dataset stores for the same cause (`str(err)` of urllib's exceptions).
    static func message(for error: TransferError) -> String {
        switch error.reason {
        case .httpStatus(let status), .rateLimited(let status):
            return "HTTP Error \(status): \(HTTPReason.phrase(status))"
        case .refusedByHeaders(let why): return why
        case .timedOut, .tooSlow, .cannotFinishInTime: return "timed out"
        case .nameResolution(let failure):
            switch failure.kind {
            case .nameNotFound, .invalidName: return "<urlopen error [Errno -2] Name or service not known>"
            case .noAddress: return "<urlopen error [Errno -5] No address associated with hostname>"
            case .serverFailure, .timedOut: return "<urlopen error [Errno -3] Temporary failure in name resolution>"
            }
        case .connectionFailed:
            let curl = error.curlMessage?.lowercased() ?? ""
            if curl.contains("resolve") { return "<urlopen error [Errno -2] Name or service not known>" }
            return "<urlopen error [Errno 111] Connection refused>"
        case .invalidURL: return "<urlopen error no host given>"
        case .unsupportedScheme(let scheme): return "<urlopen error unknown url type: \(scheme)>"
        case .tlsVerificationFailed: return "<urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed>"
        default: return "<urlopen error \(error.reasonText)>"
        }
    }
}

/// Why a row's download failed, in img2dataset's words.
struct FetchFailure: Error, Sendable { var message: String }

/// The reason phrases Python's http.client knows, which urllib puts in "HTTP Error 404: Not Found".
enum HTTPReason {
    static func phrase(_ status: Int) -> String {
        switch status {
        case 300: "Multiple Choices"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Request Entity Too Large"
        case 414: "Request-URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Requested Range Not Satisfiable"
        case 418: "I'm a Teapot"
        case 429: "Too Many Requests"
        case 451: "Unavailable For Legal Reasons"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Unknown"
        }
    }
}
