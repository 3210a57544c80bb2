import Foundation
import GalleryTestSupport

/// The real `curl` binary as a reference client for the test servers' self-tests (the engine
/// under test is written in parallel, so the servers are checked against curl first).
struct CurlResult {
    /// curl's exit code (18: partial file, 28: timeout, 52: empty reply, 22: HTTP error with -f).
    let exitCode: Int32?
    /// The last response's status, 0 if none arrived.
    let status: Int
    /// The last response's header fields, case-insensitive lookup.
    let headers: FaultServerHeaderView
    let body: [UInt8]
    let stderr: String
    let duration: Double
}

/// Case-insensitive view of the headers curl dumped.
struct FaultServerHeaderView {
    let fields: [(String, String)]
    subscript(name: String) -> String? {
        fields.last { $0.0.lowercased() == name.lowercased() }?.1
    }
}

enum Curl {
    /// Runs `curl -s -D <file> -o <file> <arguments>`; headers and body come from those files so
    /// they never mix with each other or with curl's messages.
    static func run(_ arguments: [String], timeout: Double = 30) throws -> CurlResult {
        let folder = try TempDirectory(prefix: "curl")
        let headerPath = folder.file("headers")
        let bodyPath = folder.file("body")
        let result = try ProcessRunner.run(
            "curl", ["-s", "-S", "-D", headerPath, "-o", bodyPath] + arguments, timeout: timeout)
        let headerText = (try? String(contentsOfFile: headerPath, encoding: .isoLatin1)) ?? ""
        let body = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: bodyPath)))) ?? []
        let (status, fields) = parseLastResponse(headerText)
        return CurlResult(exitCode: result.exitCode, status: status, headers: FaultServerHeaderView(fields: fields),
                          body: body, stderr: result.stderrText, duration: result.duration)
    }

    /// curl -D writes every response head (redirects, 100 Continue); keep the last one.
    private static func parseLastResponse(_ text: String) -> (Int, [(String, String)]) {
        var status = 0
        var fields: [(String, String)] = []
        for line in text.components(separatedBy: "\r\n") where !line.isEmpty {
            if line.hasPrefix("HTTP/") {
                status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
                fields = []
            } else if let colon = line.firstIndex(of: ":") {
                fields.append((String(line[..<colon]),
                               line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        return (status, fields)
    }
}

/// Seeded bytes for transfers whose content does not matter (see `TestPhotos.patternBytes`).
func patternBytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    TestPhotos.patternBytes(count, seed: seed)
}
