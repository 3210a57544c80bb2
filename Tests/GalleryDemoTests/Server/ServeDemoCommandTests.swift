import Foundation
import GallerySync
import GalleryTestSupport
import Testing

/// `fetch-gallery serve-demo` end to end: the built binary prints its base URL on one line,
/// serves the catalogue, and exits 0 on SIGINT.
@Suite("serve-demo command")
struct ServeDemoCommandTests {
    /// The executable beside the test bundle (`swift build --build-tests` builds both).
    static var binary: String? {
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("fetch-gallery").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    @Test func servesUntilInterrupted() async throws {
        let binary = try #require(Self.binary, "fetch-gallery not built next to the tests")
        let cache = try TempDirectory(prefix: "serve-demo-cache")
        defer { cache.remove() }
        let runner = try ProcessRunner(binary, ["serve-demo", "--pages", "2", "--cache-dir", cache.path])
        // Wait (off the cooperative pool) for the one-line notice.
        var line: String?
        for _ in 0..<300 where line == nil {
            try await Task.sleep(for: .milliseconds(100))
            line = runner.stdoutText.split(separator: "\n").first.map(String.init)
        }
        let notice = try #require(line, "no notice; stderr: \(runner.stderrText)")
        let baseURL = String(notice.prefix { $0 != " " })
        #expect(baseURL.hasPrefix("http://127.0.0.1:"))

        let page = try await DemoCurl.get(baseURL + "/photos?feature=popular&page=2&rpp=50").json()
        #expect(page["total_pages"] as? Int == 2)
        #expect((page["photos"] as? [Any])?.count ?? 0 >= 50)

        runner.send(SIGINT)
        let result = await withHandOffContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: runner.wait(timeout: 20)) }
        }
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        #expect(!result.timedOut)
        #expect(result.stdoutText.split(separator: "\n").count == 1)
    }

    @Test func rejectsBadPort() async throws {
        let binary = try #require(Self.binary)
        let result = await withHandOffContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: try? ProcessRunner.run(binary, ["serve-demo", "--port", "70000"], timeout: 20))
            }
        }
        #expect(result?.exitCode == 2)  // usage errors exit 2 (FetchGallery.main)
        #expect(result?.stderrText.contains("--port") == true)
    }
}

extension ServeDemoCommandTests {
    /// Rendering a fresh cache takes minutes; SIGTERM during it ends the process at once (130), and what
    /// was already rendered stays in the cache as complete files.
    @Test func sigtermWhileWarmingQuitsPromptly() async throws {
        let binary = try #require(Self.binary)
        let cache = try TempDirectory(prefix: "serve-demo-warm")
        defer { cache.remove() }
        let runner = try ProcessRunner(binary, ["serve-demo", "--warm", "--pages", "20", "--cache-dir", cache.path])
        var rendering = false
        for _ in 0..<300 where !rendering {
            try await Task.sleep(for: .milliseconds(100))
            rendering = runner.stderrText.contains("Rendering")
        }
        #expect(rendering, "stderr: \(runner.stderrText)")
        try await Task.sleep(for: .milliseconds(1500))
        let sent = Date()
        runner.send(SIGTERM)
        let result = await withHandOffContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: runner.wait(timeout: 20)) }
        }
        #expect(!result.timedOut)
        // Warming 20 pages takes minutes; the photo being rendered is finished first, which took 6 s once
        // with the target's other suites loading both cores, so 10 s (a sanitized binary gets a wider
        // bound), still far below the minutes a finished warm-up would take.
        #expect(Date().timeIntervalSince(sent) < Sanitizer.bound(10, below: 60))
        #expect(result.exitCode == 130, "stderr: \(result.stderrText)")
        #expect(result.stdoutText.isEmpty, "it never got to serving")
        #expect(result.stderrText.contains("while rendering"))
    }
}
