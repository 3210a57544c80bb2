import Foundation
import GalleryTestSupport
import Testing

/// `--format avif,jpeg` and the display picture in Debian's Chromium: the index cards and the photo page
/// load the AVIF `<source>` (Chromium shows AVIF), the photo page the 400 px display picture rather than
/// the 700 px original, the JPEG `<img>` stays what a browser without AVIF would load, and the viewer
/// script preloads the next photo's AVIF (what its page will show), not its JPEG.
@Suite(.serialized, .timeLimit(.minutes(3)),
       .disabled(if: Sanitizer.active, "under a sanitizer: the pages are the same bytes; an instrumented debug build takes minutes to make the gallery"))
struct PictureBrowserTests {
    @Test func chromiumLoadsTheAVIFSourcesAndTheDisplayPicture() async throws {
        let gallery = try await BrowserGallery.make(["--format", "avif,jpeg", "--display-size", "400"], count: 2)
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await BrowserSession(driver: driver, screen: .desktop)
        do {
            try await browser.open(gallery.url("index.html"))
            let loaded = "return Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)"
            for _ in 0..<100 where try await browser.execute(loaded) as? Bool != true { try await Task.sleep(for: .milliseconds(50)) }
            let check = try await PageCheck(browser, gallery, "picture-index")
            try await check.noErrors()
            let cards = try await browser.execute("""
                return Array.from(document.querySelectorAll('.card picture img')).map(i => [i.currentSrc, i.getAttribute('src'), i.naturalWidth])
                """) as? [[Any]] ?? []
            check.check(cards.count == 2, "cards in a <picture>: \(cards)")
            for card in cards {
                let (current, fallback) = (card[0] as? String ?? "", card[1] as? String ?? "")
                check.check(current.hasSuffix(".avif") && current.contains("/thumbs/"), "a card loaded \(current), not its AVIF")
                check.check(fallback.hasSuffix(".jpg"), "the <img> of a card is not the JPEG: \(fallback)")
            }
            try await browser.open(gallery.url(try gallery.pagePath(1)))
            for _ in 0..<100 where try await browser.execute(loaded) as? Bool != true { try await Task.sleep(for: .milliseconds(50)) }
            // The page's requests, gathered until photo 2's preload is among them (or 15 s); reading them
            // leaves the error check below its own copy of the log.
            var requested: [String] = []
            let deadline = Date().addingTimeInterval(15)
            while !requested.contains(where: { $0.contains("/002/2-") }) && Date() < deadline {
                requested += try await browser.networkEvents().filter { $0.method == "Network.requestWillBeSent" }
                    .compactMap { ($0.params["request"] as? [String: Any])?["url"] as? String }
                try await Task.sleep(for: .milliseconds(50))
            }
            try await browser.waitForImages()
            let page = try await PageCheck(browser, gallery, "picture-photo")
            try await page.noErrors()
            let shown = try await browser.execute("""
                const i = document.querySelector('figure.photo picture img'); return i ? [i.currentSrc, i.naturalWidth] : []
                """) as? [Any] ?? []
            let current = shown.first as? String ?? ""
            page.check(current.hasSuffix(".avif") && current.contains("/thumbs/400/"), "the photo page loaded \(shown), not the AVIF display picture")
            // The viewer script preloads photo 2 as its page will show it: the AVIF display picture.
            page.check(requested.contains { $0.contains("/thumbs/400/002/2-") && $0.hasSuffix(".avif") },
                       "photo 2's AVIF was not preloaded: \(requested)")
            page.check(!requested.contains { $0.contains("/002/2-") && $0.hasSuffix(".jpg") }, "photo 2's JPEG was preloaded: \(requested)")
            let links = try await browser.execute("return Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href'))") as? [String] ?? []
            page.check(links.contains { $0.contains("/photos/") && $0.hasSuffix(".jpg") }, "no link to the original: \(links)")
        } catch {
            await browser.close()
            throw error
        }
        await browser.close()
    }
}
