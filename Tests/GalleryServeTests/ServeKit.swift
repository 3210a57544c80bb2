import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// `fetch-gallery serve` started as a child process on a free port, and a real HTTP client (libcurl,
/// through the project's TransferEngine) to call it.
final class ServeProcess: Sendable {
    let runner: ProcessRunner
    let baseURL: String

    static var binary: String { (try? BuiltProduct.path()) ?? "fetch-gallery (not built)" }

    init(_ arguments: [String], environment: [String: String] = [:]) async throws {
        runner = try ProcessRunner(Self.binary, ["serve", "--bind", "127.0.0.1:0"] + arguments, environment: environment)
        let deadline = Date().addingTimeInterval(30)
        var found: String?
        while found == nil, Date() < deadline, !runner.hasExited {
            if let line = runner.stdoutText.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                found = String(line.dropFirst("listening on ".count))
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        guard let found else {
            runner.send(SIGKILL)
            throw ServeTestError("serve did not start: \(runner.stderrText)")
        }
        baseURL = found
    }

    func stop() -> ProcessResult {
        runner.send(SIGTERM)
        return runner.wait(timeout: 30)
    }

    deinit { if !runner.hasExited { runner.send(SIGKILL) } }
}

struct ServeTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The client side: GET with headers, the status, headers and body whatever the status.
enum Client {
    static let engine: TransferEngine = {
        var configuration = TransferConfiguration()
        configuration.retry.maxAttempts = 1
        configuration.maxConcurrentPerHost = 32
        configuration.maxConcurrentTransfers = 64
        return TransferEngine(configuration: configuration)
    }()

    static func get(_ url: String, headers: [String: String] = [:]) async throws -> DataResponse {
        try await engine.request(HTTPRequest(url: url, headers: HTTPHeaders(headers))).response()
    }

    /// Status and body text through curl(1): the engine reports a 5xx answer as an error without its body.
    static func curl(_ url: String) throws -> (status: Int, text: String) {
        let result = try ProcessRunner.run("curl", ["-s", "-w", "\n%{http_code}", url], timeout: 60)
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// The pixel size and format of an encoded image, from its header.
    static func probe(_ bytes: [UInt8]) throws -> (width: Int, height: Int, format: ImageFormat?) {
        let info = try ImageDecoder.probe(bytes, name: "response")
        return (info.width, info.height, ImageFormat.sniff(bytes))
    }

    static func metric(_ text: String, _ name: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.split(separator: " ").last!)
        }
        return nil
    }
}
