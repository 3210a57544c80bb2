import Foundation

/// Where the built `fetch-gallery` executable is, for tests that run it end to end.
///
/// `swift build --build-tests` puts it beside the test bundle (`.build/debug/`), whatever the
/// scratch path, so it is found from the running test executable; `FETCH_GALLERY_BIN` overrides.
public enum BuiltBinary {
    public static var fetchGallery: String {
        if let path = ProcessInfo.processInfo.environment["FETCH_GALLERY_BIN"] { return path }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        // On Linux the tests run from `<bin>/<Package>PackageTests.xctest`; elsewhere from inside a bundle.
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("fetch-gallery").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return "fetch-gallery"
    }
}
