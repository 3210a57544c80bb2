import Foundation

/// A catalogue of hostile or broken servers, each installable on a `FaultServer` path, so the
/// engine and pipeline tests can run every one with `@Test(arguments: HostileScenario.allCases)`
/// and assert a typed failure (or a correct recovery) instead of a hang, a crash or a huge file.
///
/// Every scenario's wire behaviour is pinned by `SupportHostileScenarioTests` with the real
/// curl binary; `summary` says what a careful client should do.
public enum HostileScenario: String, CaseIterable, Sendable, CustomStringConvertible {
    case truncatedBody
    case connectionReset
    case emptyReply
    case stalledBody
    case stalledHeaders
    case slowDrip
    case lyingContentLength
    case hugeContentLength
    case conflictingContentLengths
    case gzipBomb
    case htmlAsJPEG
    case captivePortal
    case emptyBody
    case redirectLoop
    case redirectToFile
    case redirectToClosedPort
    case rangeIgnored
    case changedBetweenAttempts
    case wrongContentRange
    case serviceUnavailable
    case tooManyRequests
    case notFound
    case serverError
    case endlessHeaders
    case garbageResponse

    public var description: String { rawValue }

    /// What the server does, and what a careful client should make of it.
    public var summary: String {
        switch self {
        case .truncatedBody: "declares the full length, closes after half: partial transfer, retry or resume"
        case .connectionReset: "TCP reset after a quarter of the body (rounded up): receive error, retry or resume"
        case .emptyReply: "closes without a byte: empty reply, retry"
        case .stalledBody: "sends 1 KiB then goes silent for 10 minutes: a low-speed or idle timeout must fire"
        case .stalledHeaders: "accepts, reads the request, never answers: a timeout must fire"
        case .slowDrip: "trickles 200 bytes/s: a minimum-speed limit must fire"
        case .lyingContentLength: "declares twice the real length then closes: partial transfer"
        case .hugeContentLength: "declares 50 GB over a short body: refuse by size before downloading"
        case .conflictingContentLengths: "two different Content-Length fields: reject the response"
        case .gzipBomb: "Content-Encoding: gzip, 1 MiB inflating to 1 GiB of zeros: cap decoded bytes"
        case .htmlAsJPEG: "an HTML page labelled image/jpeg: sniff the bytes, not a decodable image"
        case .captivePortal: "a login page (200, text/html) on attempts 1 and 2, then the photo: sniff, discard, retry"
        case .emptyBody: "200 with Content-Length 0: not an image"
        case .redirectLoop: "redirects to itself forever: stop at the redirect limit"
        case .redirectToFile: "redirects to file:///etc/passwd: refuse non-HTTP redirects"
        case .redirectToClosedPort: "redirects to a loopback port nobody listens on: connection refused"
        case .rangeIgnored: "answers a Range request with the whole file (200): restart, never append"
        case .changedBetweenAttempts: "cuts attempt 1, then serves new content and ETag: If-Range restarts the file"
        case .wrongContentRange: "206 whose Content-Range starts one byte after the asked offset: reject, never splice"
        case .serviceUnavailable: "503 with Retry-After: 1 on attempts 1 and 2, then the file: retry after waiting"
        case .tooManyRequests: "429 with an HTTP-date Retry-After 2 s ahead on attempt 1, then the file"
        case .notFound: "404 with an HTML body: permanent failure, no retry"
        case .serverError: "500 on every attempt: give up after the retry budget"
        case .endlessHeaders: "header fields without end: enforce a header size limit"
        case .garbageResponse: "bytes that are not HTTP: protocol error"
        }
    }

    /// Serves this scenario at `path` on `server`, using `payload` (e.g. a real JPEG) wherever
    /// a body is sent.
    public func install(on server: FaultServer, path: String, payload: [UInt8]) {
        let scenario = self
        let target = server.url(path)
        let closedPort = self == .redirectToClosedPort ? FaultServer.refusedURL("/gone.jpg") : ""
        // The bomb is built now, not by the first request that asks for it: building it in the response path
        // left the client waiting on a silent server (under TSan and load, past a 1 s low-speed window and
        // even an 8 s deadline), so the scenario failed as a stall instead of as a bomb.
        if self == .gzipBomb { _ = Self.bomb }
        server.route(path) { request, attempt in
            scenario.response(request: request, attempt: attempt, payload: payload, selfURL: target,
                              closedURL: closedPort)
        }
    }

    // swiftlint:disable:next cyclomatic_complexity
    private func response(request: FaultServer.Request, attempt: Int, payload: [UInt8], selfURL: String,
                          closedURL: String) -> FaultServer.Response {
        let file = FaultServer.Response.file(payload, etag: "\"v1\"", contentType: "image/jpeg")
        switch self {
        case .truncatedBody: return file.cut(afterBodyBytes: payload.count / 2)
        // A quarter rounded up, so that a client resuming each try finishes on its fourth: rounded down, a photo
        // whose size is not a multiple of 4 needed exactly the five tries the engine makes, with no try to spare.
        case .connectionReset: return file.reset(afterBodyBytes: (payload.count + 3) / 4)
        case .emptyReply: return file.droppingConnection()
        case .stalledBody: return file.stall(afterBodyBytes: min(1024, payload.count), seconds: 600)
        case .stalledHeaders: return file.stallBeforeHeaders(seconds: 600)
        case .slowDrip: return file.trickle(bytesPerSecond: 200)
        case .lyingContentLength: return file.declaringContentLength(payload.count * 2)
        case .hugeContentLength:
            return .status(200, headers: ["Content-Type": "image/jpeg", "Content-Length": "53687091200"],
                           body: Array(payload.prefix(4096)))
        case .conflictingContentLengths:
            return .status(200, headers: ["Content-Type": "image/jpeg"], body: payload)
                .addingHeader("Content-Length", String(payload.count))
                .addingHeader("Content-Length", String(payload.count + 100))
        case .gzipBomb:
            return .status(200, headers: ["Content-Type": "image/jpeg", "Content-Encoding": "gzip"],
                           body: Self.bomb)
        case .htmlAsJPEG: return .html()
        case .captivePortal:
            let portal = "<!DOCTYPE html><html><head><title>Wi-Fi login</title></head><body><form>Accept</form></body></html>\n"
            return attempt <= 2 ? .html(portal, contentType: "text/html") : file
        case .emptyBody: return .status(200, headers: ["Content-Type": "image/jpeg"])
        case .redirectLoop: return .redirect(to: selfURL)
        case .redirectToFile: return .redirect(to: "file:///etc/passwd")
        case .redirectToClosedPort: return .redirect(to: closedURL)
        case .rangeIgnored: return .file(payload, etag: "\"v1\"", contentType: "image/jpeg", ignoringRange: true)
        case .changedBetweenAttempts:
            if attempt == 1 { return file.cut(afterBodyBytes: payload.count / 2) }
            return .file(Array(payload.reversed()), etag: "\"v2\"", contentType: "image/jpeg")
        case .wrongContentRange:
            // Claim (and send) the range one byte past the one asked for; 206 even without Range.
            var asked = 0
            if let header = request.headers["Range"], case .from(let start, _)? = FileResolution.parseRange(header) {
                asked = start
            }
            let start = min(asked + 1, max(0, payload.count - 1))
            return .status(206, headers: [
                "Content-Type": "image/jpeg",
                "Content-Range": "bytes \(start)-\(payload.count - 1)/\(payload.count)",
            ], body: Array(payload[start...]))
        case .serviceUnavailable:
            return attempt <= 2 ? .status(503, headers: ["Retry-After": "1"], text: "busy\n") : file
        case .tooManyRequests:
            let later = FaultServer.httpDate(Date().addingTimeInterval(2))
            return attempt == 1 ? .status(429, headers: ["Retry-After": later], text: "slow down\n") : file
        case .notFound:
            return .status(404, headers: ["Content-Type": "text/html"], text: "<h1>Not Found</h1>\n")
        case .serverError: return .status(500, text: "internal error\n")
        case .endlessHeaders: return .status(200).endlessHeaders()
        case .garbageResponse: return .raw(Array("SSH-2.0-OpenSSH_9.2\r\nnot http at all\r\n\r\n".utf8))
        }
    }

    /// Built once: every server sharing it costs nothing.
    private static let bomb = FaultServer.gzipBomb(uncompressedBytes: 1 << 30)
}
