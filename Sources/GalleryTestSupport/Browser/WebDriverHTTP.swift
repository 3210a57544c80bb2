import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The W3C WebDriver wire protocol: JSON over HTTP, every answer `{"value": ...}`, errors as
/// `{"value": {"error": ..., "message": ...}}`.
///
/// A small HTTP/1.1 exchange over a loopback socket (one `Connection: close` per command, its body
/// read by `Content-Length` or to the end),
/// not URLSession: Foundation's libcurl-backed URLSession failed every request to chromedriver here
/// with "Failed writing header". Each exchange is bounded by a socket timeout and runs on a thread
/// of its own, off the cooperative pool.
struct WebDriverHTTP: Sendable {
    let port: UInt16
    let timeout: Double

    /// Sends one command and returns its `value`.
    func send(_ method: String, _ path: String, _ body: [String: Any]? = nil, timeout: Double? = nil) async throws -> Any? {
        let command = "\(method) \(path)"
        var payload: [UInt8] = []
        if let body {
            payload = [UInt8](try JSONSerialization.data(withJSONObject: body))
        } else if method == "POST" {
            payload = Array("{}".utf8)
        }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nAccept: application/json\r\n"
        if method == "POST" { head += "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(payload.count)\r\n" }
        let request = Array((head + "\r\n").utf8) + payload
        let (port, limit) = (self.port, timeout ?? self.timeout)
        let data = try await DedicatedTaskExecutor.offPool { () throws -> [UInt8] in
            try Self.exchange(port: port, request: request, timeout: limit, command: command)
        }
        guard let answer = try? JSONSerialization.jsonObject(with: Data(data), options: [.fragmentsAllowed]) as? [String: Any] else {
            throw BrowserError.transport(command: command, reason: "not a JSON object: \(String(decoding: data.prefix(500), as: UTF8.self))")
        }
        let value = answer["value"]
        if let failure = value as? [String: Any], let error = failure["error"] as? String {
            throw BrowserError.webDriver(command: command, error: error, message: failure["message"] as? String ?? "")
        }
        return value is NSNull ? nil : value
    }

    /// Connects, writes `request`, reads the response to the end and returns its body.
    static func exchange(port: UInt16, request: [UInt8], timeout: Double, command: String) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BrowserError.transport(command: command, reason: "socket: errno \(errno)") }
        defer { close(fd) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = Socket.loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BrowserError.transport(command: command, reason: "connect to 127.0.0.1:\(port): errno \(errno)") }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw BrowserError.transport(command: command, reason: "send: errno \(errno)") }
            sent += n
        }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                let reason = errno == EAGAIN || errno == EWOULDBLOCK ? "no answer within \(timeout) s" : "recv: errno \(errno)"
                throw BrowserError.transport(command: command, reason: reason)
            }
            if n == 0 { break }
            response += chunk[..<n]
            if response.count > 256 << 20 { throw BrowserError.transport(command: command, reason: "answer over 256 MB") }
            if let (start, length) = Self.body(of: response), response.count - start >= length { break }
        }
        guard let (start, length) = Self.body(of: response) else {
            throw BrowserError.transport(command: command, reason: "no HTTP header in \(response.count) bytes")
        }
        return Array(response[start..<(length > response.count - start ? response.count : start + length)])
    }

    /// Where the body starts and how long it is (its Content-Length, else everything after the header).
    static func body(of response: [UInt8]) -> (start: Int, length: Int)? {
        guard let end = response.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let header = String(decoding: response[..<end.lowerBound], as: UTF8.self).lowercased()
        let length = header.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
        return (end.upperBound, length ?? Int.max)
    }
}
