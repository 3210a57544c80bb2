import Foundation
import GalleryTestSupport
import Testing

/// `fetch-gallery serve --auto-avif --auto-webp` behind an `<img srcset>` in Debian's Chromium: the browser's
/// own Accept header gets AVIF, the 2x candidate is picked on a 2x screen, and every answer says `Vary: Accept`.
@Suite(.serialized, .timeLimit(.minutes(3)),
       .disabled(if: Sanitizer.active, "under a sanitizer: the service's bytes are the same; the browser run only adds minutes"))
struct ServeBrowserTests {
    @Test func chromiumGetsAVIFFromASrcsetThroughAccept() async throws {
        let dir = try TempDirectory(prefix: "serve-browser")
        defer { dir.remove() }
        _ = try dir.write(try Corpus.bytes("exif-orientation/Landscape_1.jpg"), to: "photo.jpg")
        let binary = try BuiltProduct.path()
        let server = try ProcessRunner(binary, ["serve", "--bind", "127.0.0.1:0", "--root", dir.path, "--auto-avif", "--auto-webp", "--quiet"])
        defer { server.send(SIGTERM); _ = server.wait(timeout: 20) }
        var base: String?
        for _ in 0..<200 where base == nil {
            base = server.stdoutText.split(separator: "\n").first { $0.hasPrefix("listening on ") }.map { String($0.dropFirst(13)) }
            if base == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let url = try #require(base, "serve did not start: \(server.stderrText)")
        let small = url + "/insecure/w:150/plain/local:///photo.jpg", large = url + "/insecure/w:300/plain/local:///photo.jpg"
        let page = try dir.write(Array("""
            <!doctype html><meta charset="utf-8"><title>srcset</title>
            <img id="p" width="150" srcset="\(small) 1x, \(large) 2x" src="\(small)">
            """.utf8), to: "page.html")
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await BrowserSession(driver: driver, screen: .phone)  // pixel ratio 2
        do {
            try await browser.open(URL(fileURLWithPath: page))
            let loaded = "const i = document.getElementById('p'); return i.complete && i.naturalWidth > 0"
            for _ in 0..<200 where try await browser.execute(loaded) as? Bool != true { try await Task.sleep(for: .milliseconds(50)) }
            let shown = try await browser.execute("const i = document.getElementById('p'); return [i.currentSrc, i.naturalWidth]") as? [Any] ?? []
            // naturalWidth is in CSS pixels: the 300 px 2x candidate reports 150.
            #expect(shown.first as? String == large && shown.last as? Int == 150, "shown: \(shown)")
            let responses = try await browser.networkEvents().filter { $0.method == "Network.responseReceived" }
                .compactMap { $0.params["response"] as? [String: Any] }
                .filter { ($0["url"] as? String)?.hasPrefix(url) == true }
            #expect(!responses.isEmpty, "no response from the service was seen")
            for response in responses {
                #expect(response["mimeType"] as? String == "image/avif", "\(response["url"] ?? "?") came as \(response["mimeType"] ?? "?")")
                let headers = response["headers"] as? [String: Any] ?? [:]
                let vary = headers.first { $0.key.lowercased() == "vary" }?.value as? String
                #expect(vary == "Accept", "Vary: \(vary ?? "none")")
            }
        } catch {
            await browser.close()
            throw error
        }
        await browser.close()
    }
}
