import Foundation
import GalleryTestSupport
import Testing

/// The gallery every browser test opens, made once per test process by the built command; with the
/// screenshots the tests take. Removed when the process ends, unless a check failed: then it stays
/// for a person to look at, and each failure names its screenshot.
enum Shared {
    static let gallery = Task { try await BrowserGallery.make() }
    nonisolated(unsafe) static var keep = ProcessInfo.processInfo.environment["FETCH_GALLERY_KEEP_BROWSER"] != nil
    nonisolated(unsafe) static var folder: String?
    static let cleanup: Void = {
        atexit {
            if !Shared.keep, let folder = Shared.folder { try? FileManager.default.removeItem(atPath: folder) }
        }
    }()

    static func value() async throws -> BrowserGallery {
        let gallery = try await gallery.value
        folder = gallery.dir.path
        _ = cleanup
        return gallery
    }
}

/// Checks on one browser page, each failure recorded with the page's screenshot path.
struct PageCheck {
    let browser: BrowserSession
    let gallery: BrowserGallery
    let name: String
    let screenshot: String

    /// Takes the screenshot of what the browser shows now, as `name`.
    init(_ browser: BrowserSession, _ gallery: BrowserGallery, _ name: String) async throws {
        self.browser = browser
        self.gallery = gallery
        self.name = name
        try FileManager.default.createDirectory(atPath: gallery.dir.file("screenshots"), withIntermediateDirectories: true)
        screenshot = gallery.dir.file("screenshots/\(name)-\(browser.screen.width)px-\(browser.screen.pixelRatio)x.png")
        try await browser.screenshot(to: screenshot)
    }

    func check(_ condition: Bool, _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard !condition else { return }
        Shared.keep = true
        Issue.record("\(name) at \(browser.screen): \(message())\nscreenshot: \(screenshot)", sourceLocation: sourceLocation)
    }

    /// No console error and no failed request since the last call, whatever the test read of the logs
    /// itself meanwhile (the check reads them as a reader of its own).
    func noErrors(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (errors, failed) = try await Self.errors(browser)
        check(errors.isEmpty, "console: \(errors)", sourceLocation: sourceLocation)
        check(failed.isEmpty, "failed requests: \(failed)", sourceLocation: sourceLocation)
    }

    /// Console errors and warnings, and failed requests, that ``noErrors(sourceLocation:)`` has not seen yet.
    static func errors(_ browser: BrowserSession) async throws -> (console: [String], requests: [String]) {
        let console = try await browser.consoleLog(reader: "noErrors").filter { $0.level == "SEVERE" || $0.level == "WARNING" }
        let failed = try await browser.networkEvents(reader: "noErrors").filter { $0.method == "Network.loadingFailed" }
        return (console.map { "\($0.level): \($0.message)" }, failed.map { "\($0.params)" })
    }

    /// Nothing sticks out sideways: the page is no wider than the viewport.
    func noSidewaysOverflow(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let widths = try await browser.execute("return [document.documentElement.scrollWidth, window.innerWidth]") as? [Any] ?? []
        let (scroll, inner) = (number(widths.first), number(widths.last))
        check(scroll != nil && inner != nil && scroll! <= inner!, "scrollWidth \(String(describing: scroll)) > innerWidth \(String(describing: inner))",
              sourceLocation: sourceLocation)
    }
}

/// A JSON number as a Double, whichever way Foundation bridged it.
func number(_ value: Any?) -> Double? {
    switch value {
    case let value as Int: Double(value)
    case let value as Double: value
    case let value as NSNumber: value.doubleValue
    default: nil
    }
}
