import Foundation
import GallerySync
import GalleryTestSupport

/// One response as the real `curl` binary saw it.
struct CurlResponse {
    let exitCode: Int32?
    /// Status of the last response, 0 if none arrived.
    let status: Int
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    subscript(header name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw DemoTestFailure("not a JSON object: \(text.prefix(200))")
        }
        return object
    }
}

/// URLSession is not reliable on Linux, and a real client is the point: the server is checked
/// with the `curl` binary, headers and body written to separate files so they never mix.
///
/// Async, and waiting on a Dispatch thread: a test blocking a cooperative-pool thread while curl
/// waits for the in-process server would starve the server's own tasks (the pool has one thread
/// per core, and tests run in parallel), and everything would hang.
enum DemoCurl {
    static func run(_ arguments: [String], allowNoResponse: Bool = false) async throws -> CurlResponse {
        try await withThrowingHandOffContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runBlocking(arguments, allowNoResponse: allowNoResponse) })
            }
        }
    }

    /// Runs curl; throws when no response arrived at all (with curl's message), unless
    /// `allowNoResponse` (for checking that nothing listens any more).
    private static func runBlocking(_ arguments: [String], allowNoResponse: Bool) throws -> CurlResponse {
        let folder = try TempDirectory(prefix: "demo-curl")
        defer { folder.remove() }
        let headerPath = folder.file("headers"), bodyPath = folder.file("body")
        let result = try ProcessRunner.run("curl", ["-s", "-S", "--max-time", "60", "-D", headerPath, "-o", bodyPath] + arguments, timeout: 90)
        let headerText = (try? String(contentsOfFile: headerPath, encoding: .isoLatin1)) ?? ""
        let body = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: bodyPath)))) ?? []
        var status = 0
        var headers: [(String, String)] = []
        for line in headerText.components(separatedBy: "\r\n") where !line.isEmpty {
            if line.hasPrefix("HTTP/") {
                status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
                headers = []
            } else if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]),
                                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        if status == 0 && !allowNoResponse {
            throw DemoTestFailure("curl \(arguments.joined(separator: " ")): exit \(result.exitCode.map(String.init) ?? "signal"), "
                + "\(result.stderrText) after \(result.duration) s")
        }
        return CurlResponse(exitCode: result.exitCode, status: status, headers: headers, body: body)
    }

    static func get(_ url: String, _ headers: [String: String] = [:], extra: [String] = []) async throws -> CurlResponse {
        try await run(extra + headers.sorted { $0.key < $1.key }.flatMap { ["-H", "\($0.key): \($0.value)"] } + [url])
    }
}
