import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// The address policy inside the transfer: libcurl asks before opening each socket (with the resolved
/// address) and before sending each request (with the address of the connection it will use, new or
/// kept alive), for the first URL and every redirect. A refusal aborts the attempt with `.addressRefused`.
extension CurlTransfer {
    func installAddressGuard(_ me: UnsafeMutableRawPointer) throws(CurlSetupError) {
        // Every new connection's resolved address passes the request's address policy first.
        try curlCheck(fg_easy_setopt_opensocket(easy.raw, curlOpenSocketCallback), option: CURLOPT_OPENSOCKETFUNCTION.rawValue)
        try easy.set(CURLOPT_OPENSOCKETDATA, pointer: me)
        // ...and every request, on a new or a kept-alive connection, before it is sent: a connection opened
        // by another request (under another policy) must not carry this one somewhere it may not go.
        try curlCheck(fg_easy_setopt_prereq(easy.raw, curlPrereqCallback), option: CURLOPT_PREREQFUNCTION.rawValue)
        try easy.set(CURLOPT_PREREQDATA, pointer: me)
    }

    /// Called by libcurl instead of socket(2) before each new connection, with the resolved address: the
    /// address policy decides here, so DNS answers and redirects are judged by where they really lead.
    func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let family = address.pointee.family
        let length = Int(address.pointee.addrlen)
        guard let ip = IPAddress(socketAddress: fg_curl_sockaddr_addr(address), length: length) else {
            _ = abort(.invalidResponse("refused to connect to an address of family \(family)"))
            return fg_curl_socket_bad()
        }
        if let refusal = refusal(for: ip) {
            _ = abort(.addressRefused(refusal))
            return fg_curl_socket_bad()
        }
        return socket(family, address.pointee.socktype, address.pointee.protocol)
    }

    /// Called by libcurl once the connection for a request is ready (new or reused), before the request
    /// goes out; the first call names the origin for the origin rule.
    func beforeRequest(primaryIP: String) -> Bool {
        guard let ip = IPAddress(primaryIP) else {
            return abort(.invalidResponse("connected to an address that is not IP (\(primaryIP))"))
        }
        if let refusal = refusal(for: ip) { return abort(.addressRefused(refusal)) }
        if requestsSent == 0 { originClass = ip.addressClass }
        requestsSent += 1
        return true
    }

    /// Before the first request, connections go to the URL's own host: no origin class yet, so the origin
    /// rule lets them through (the user named that host). After it, an unknown origin fails closed.
    private func refusal(for ip: IPAddress) -> AddressRefusal? {
        if spec.refusesLinkLocal, ip.addressClass == .linkLocal {
            return AddressRefusal(address: ip.description, addressClass: .linkLocal,
                                  why: "link-local addresses (cloud metadata services) are not fetched; "
                                      + "--allow-private-addresses lifts this")
        }
        let origin = requestsSent == 0 ? nil : (originClass ?? .publicInternet)
        return spec.addressPolicy.refusal(for: ip, origin: origin)
    }
}

private let curlOpenSocketCallback: curl_opensocket_callback = { user, _, address in
    let t = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
    return t.openSocket(address!)
}

private let curlPrereqCallback: curl_prereq_callback = { user, primaryIP, _, _, _ in
    let t = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
    let ip = primaryIP.map { String(cString: $0) } ?? ""
    return t.beforeRequest(primaryIP: ip) ? 0 : 1  // CURL_PREREQFUNC_OK / CURL_PREREQFUNC_ABORT
}
