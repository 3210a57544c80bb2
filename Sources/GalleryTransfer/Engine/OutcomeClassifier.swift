import CCurl

/// Maps a finished attempt to the reason it failed (nil: libcurl succeeded and our callbacks did not object).
enum OutcomeClassifier {
    static func failure(_ o: AttemptOutcome, maxRedirects: Int, lowSpeed: (Int, Int)) -> TransferError.Reason? {
        if let reason = o.abortReason { return reason }
        switch o.code {
        case CURLE_OK:
            return nil
        case CURLE_UNSUPPORTED_PROTOCOL:
            // libcurl uses this code for a refused scheme and for an HTTP/0.9 (header-less) answer; the first
            // URL's scheme is checked before submission, so a refused scheme means a redirect.
            if o.curlMessage?.contains("HTTP/0.9") == true { return .invalidResponse("not HTTP (HTTP/0.9 refused)") }
            return .redirectRefused
        case CURLE_WEIRD_SERVER_REPLY:
            return .invalidResponse(o.curlMessage ?? "unexpected reply")
        case CURLE_URL_MALFORMAT:
            return .invalidURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            return .connectionFailed
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl uses one code for the deadline and the low-speed limit; its message tells them apart.
            if o.curlMessage?.contains("too slow") == true {
                return .tooSlow(bytesPerSecond: lowSpeed.0, seconds: lowSpeed.1)
            }
            return .timedOut
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(limit: maxRedirects)
        case CURLE_PARTIAL_FILE:
            return .truncatedBody(received: o.bodyBytes, expected: o.head?.contentLength)
        case CURLE_FILESIZE_EXCEEDED:
            return .bodyTooLarge(limit: 0, declared: o.head?.contentLength)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return .tlsVerificationFailed
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        default:
            return .network(code: Int(o.code.rawValue))
        }
    }
}
