import Foundation
import GalleryTestSupport
import Testing

/// What every browser test relies on in the harness. The error check reads the console and network
/// logs as a reader of its own: chromedriver hands each entry out once, and a test that read the
/// network log for its own check (the preloaded photo) once took the failed requests away from the
/// error check after it.
/// Not skipped under a sanitizer: it checks the harness, and keeps the target from skipping whole.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct BrowserHarnessTests {
    @Test func theErrorCheckSeesWhatTheTestAlreadyRead() async throws {
        let dir = try TempDirectory(prefix: "browser-log")
        let page = try dir.write(Array("""
            <!doctype html><meta charset="utf-8"><title>log</title>
            <img src="missing.png" alt="missing"><script>console.error("boom from the page")</script>
            """.utf8), to: "page.html")
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await BrowserSession(driver: driver, screen: .desktop)
        do {
            try await browser.open(URL(fileURLWithPath: page))
            try await browser.waitForImages()
            // The test reads both logs for checks of its own, until the failure is among what it read.
            var read: [String] = []
            let deadline = Date().addingTimeInterval(15)
            while !read.contains(where: { $0.contains("missing.png") }) && Date() < deadline {
                read += try await browser.networkEvents().map { "\($0.method) \($0.params)" }
                read += try await browser.consoleLog().map(\.message)
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(read.contains { $0.contains("missing.png") }, "the page's failed request was never logged: \(read)")
            let (console, requests) = try await PageCheck.errors(browser)
            #expect(console.contains { $0.contains("boom from the page") }, "console: \(console)")
            #expect(!requests.isEmpty || console.contains { $0.contains("missing.png") }, "requests: \(requests), console: \(console)")
            // Read once by the check: the next check starts after it.
            let again = try await PageCheck.errors(browser)
            #expect(again.console.isEmpty && again.requests.isEmpty, "\(again)")
        } catch {
            await browser.close()
            throw error
        }
        await browser.close()
    }
}
