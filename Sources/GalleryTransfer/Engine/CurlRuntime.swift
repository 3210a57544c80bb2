import CCurl

/// Process-wide libcurl facts: one-time global initialisation and the version string.
enum CurlRuntime {
    /// `curl_global_init` is not thread-safe, so it runs exactly once, behind Swift's lazy-static guarantee.
    static let initialized: Bool = {
        // CURL_GLOBAL_ALL is a macro expression Swift does not import; 3 = SSL | WIN32.
        curl_global_init(3) == CURLE_OK
    }()

    /// The libcurl version, e.g. "7.88.1", for the User-Agent.
    static let version: String = {
        guard let info = curl_version_info(CURLVERSION_TENTH), let v = info.pointee.version else { return "unknown" }
        return String(cString: v)
    }()

    /// The tool's version, sent in the User-Agent.
    static let toolVersion = "0.1"
    /// Where the tool and its maintainers are found, sent in the User-Agent (services' policies ask for a contact).
    static let contactURL = "https://github.com/fetch-gallery/fetch-gallery"
    /// Our honest default User-Agent: the tool, its version, a contact URL, and libcurl.
    static var userAgent: String { "fetch-gallery/\(toolVersion) (+\(contactURL)) libcurl/\(version)" }

    /// libcurl's own text for a code (used when the error buffer is empty).
    static func describe(_ code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}

/// Thrown by the checked setopt / getinfo wrappers: a setopt failing means a programming error or a libcurl
/// built without a feature, so it carries the option number and libcurl's text.
struct CurlSetupError: Error, CustomStringConvertible {
    let option: UInt32
    let code: CURLcode
    var description: String { "libcurl option \(option) refused: \(CurlRuntime.describe(code))" }
}

/// Turns a CURLcode from a setup call into a thrown error, so no return code is silently dropped.
@inline(__always)
func curlCheck(_ code: CURLcode, option: UInt32) throws(CurlSetupError) {
    if code != CURLE_OK { throw CurlSetupError(option: option, code: code) }
}
