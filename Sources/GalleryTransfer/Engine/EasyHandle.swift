import CCurl

/// Owns one libcurl easy handle and the C memory it points at (error buffer, header list).
///
/// Not `Sendable`: it is configured on the submitting task, then owned by the multi-loop thread until the
/// transfer completes (see `CurlTransfer` for the hand-off). Everything is freed in `deinit`.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    /// CURLOPT_ERRORBUFFER: libcurl writes its detailed message here (CURL_ERROR_SIZE bytes).
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var resolveList: UnsafeMutablePointer<curl_slist>?

    init() throws(CurlSetupError) {
        _ = CurlRuntime.initialized
        guard let h = curl_easy_init() else { throw CurlSetupError(option: 0, code: CURLE_FAILED_INIT) }
        raw = h
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    deinit {
        curl_easy_cleanup(raw)
        if let headerList { curl_slist_free_all(headerList) }
        if let resolveList { curl_slist_free_all(resolveList) }
        errorBuffer.deallocate()
    }

    /// The detailed libcurl message for the last failure, or nil when libcurl left it empty.
    var errorText: String? {
        let s = String(cString: errorBuffer)
        return s.isEmpty ? nil : s
    }

    func set(_ option: CURLoption, _ value: Int) throws(CurlSetupError) {
        try curlCheck(fg_easy_setopt_long(raw, option, value), option: option.rawValue)
    }

    func set(_ option: CURLoption, offset value: Int64) throws(CurlSetupError) {
        try curlCheck(fg_easy_setopt_off(raw, option, curl_off_t(value)), option: option.rawValue)
    }

    /// libcurl copies string options (since 7.17), so the Swift string need not outlive the call.
    func set(_ option: CURLoption, _ value: String) throws(CurlSetupError) {
        try curlCheck(value.withCString { fg_easy_setopt_string(raw, option, $0) }, option: option.rawValue)
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(CurlSetupError) {
        try curlCheck(fg_easy_setopt_pointer(raw, option, value), option: option.rawValue)
    }

    func set(share: UnsafeMutableRawPointer) throws(CurlSetupError) {
        try curlCheck(fg_easy_setopt_share(raw, share), option: CURLOPT_SHARE.rawValue)
    }

    /// Replaces the request headers; the list must stay alive while the handle is in use, so we own it.
    func setHeaders(_ headers: [(String, String)]) throws(CurlSetupError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers {
            // "Name:" with an empty value would make curl drop the header; "Name;" sends it empty.
            let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
            list = curl_slist_append(list, line)
        }
        try curlCheck(fg_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, list), option: CURLOPT_HTTPHEADER.rawValue)
        if let headerList { curl_slist_free_all(headerList) }
        headerList = list
    }

    /// CURLOPT_RESOLVE: addresses for host:port pairs, so libcurl does not resolve them; kept alive with
    /// the handle.
    func setResolve(_ entries: [String]) throws(CurlSetupError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for entry in entries { list = curl_slist_append(list, entry) }
        try curlCheck(fg_easy_setopt_slist(raw, CURLOPT_RESOLVE, list), option: CURLOPT_RESOLVE.rawValue)
        if let resolveList { curl_slist_free_all(resolveList) }
        resolveList = list
    }

    func info(long key: CURLINFO) -> Int {
        var v: Int = 0
        return fg_easy_getinfo_long(raw, key, &v) == CURLE_OK ? v : 0
    }

    func info(offset key: CURLINFO) -> Int64 {
        var v: curl_off_t = 0
        return fg_easy_getinfo_off(raw, key, &v) == CURLE_OK ? Int64(v) : 0
    }

    func info(string key: CURLINFO) -> String? {
        var p: UnsafeMutablePointer<CChar>?
        guard fg_easy_getinfo_string(raw, key, &p) == CURLE_OK, let p else { return nil }
        return String(cString: p)
    }
}
