import Foundation
import GalleryTestSupport
import Testing

/// The gallery viewer in Debian's Chromium (headless, through chromedriver's WebDriver API), opened
/// from disk (`file://`): clean loads, sharp thumbnails at 1x and 2x, keys, swipe, preloading, no
/// sideways overflow at 390 and 1280 px, markup in a name shown as text, and pages without JavaScript.
/// Serialized: one browser at a time on a 2-CPU machine.
@Suite(.serialized, .timeLimit(.minutes(3)),
       .disabled(if: Sanitizer.active, "under a sanitizer: the pages are the same bytes (the sanitizers check the code that wrote them in the other targets), and an instrumented debug build takes minutes to make the gallery"))
struct GalleryViewerBrowserTests {
    /// Opens a browser on `screen`, runs `body`, and closes it (and the driver) whatever happens.
    func withBrowser(_ screen: BrowserSession.Screen, javaScript: Bool = true,
                     _ body: (BrowserSession, BrowserGallery) async throws -> Void) async throws {
        let gallery = try await Shared.value()
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await BrowserSession(driver: driver, screen: screen, javaScript: javaScript)
        do { try await body(browser, gallery) } catch {
            await browser.close()
            throw error
        }
        await browser.close()
    }

    static let screens: [BrowserSession.Screen] = [.desktop, BrowserSession.Screen(width: 1280, height: 900, pixelRatio: 2), .phone]

    @Test(arguments: screens)
    func pagesLoadCleanlyAndThumbnailsFitTheScreen(screen: BrowserSession.Screen) async throws {
        try await withBrowser(screen) { browser, gallery in
            for page in ["index.html", "index-2.html", "index-3.html"] {
                try await browser.open(gallery.url(page))
                // Scroll through the page so every lazy thumbnail loads, then wait for them.
                _ = try await browser.execute("window.scrollTo(0, document.body.scrollHeight)")
                let loaded = "return Array.from(document.images).every(i => i.complete)"
                for _ in 0..<100 where try await browser.execute(loaded) as? Bool != true { try await Task.sleep(for: .milliseconds(50)) }
                _ = try await browser.execute("window.scrollTo(0, 0)")
                let check = try await PageCheck(browser, gallery, page)
                try await check.noErrors()
                try await check.noSidewaysOverflow()
                // The first, previous, next and last links share one row, even on a phone (the
                // "Page i of P" text may take a row of its own there).
                let rows = try await browser.execute("""
                    return Array.from(document.querySelectorAll('nav.pages')).map(n =>
                      new Set(Array.from(n.children).filter(c => !c.classList.contains('at')).map(c => Math.round(c.getBoundingClientRect().top))).size)
                    """) as? [Any] ?? []
                check.check(rows.count == 2 && rows.allSatisfy { number($0) == 1 }, "page links on more than one row: \(rows)")
                let images = try await browser.execute("""
                    return Array.from(document.querySelectorAll('.card img')).map(i => ({
                      natural: i.naturalWidth, shown: i.getBoundingClientRect().width, current: i.currentSrc,
                      srcset: i.getAttribute('srcset') || '', alt: i.alt, width: i.getAttribute('width'), height: i.getAttribute('height')}))
                    """) as? [[String: Any]] ?? []
                check.check(images.count == (page == "index-3.html" ? 1 : BrowserGallery.perPage), "\(images.count) thumbnails")
                for image in images {
                    let natural = number(image["natural"]) ?? 0, shown = number(image["shown"]) ?? 0
                    let current = image["current"] as? String ?? ""
                    check.check(natural > 0, "thumbnail not loaded: \(image)")
                    check.check(!(image["alt"] as? String ?? "").isEmpty && image["width"] is String && image["height"] is String,
                                "alt, width and height: \(image)")
                    // The candidates by width; the one shown must be the smallest sharp at this density.
                    let candidates = (image["srcset"] as? String ?? "").split(separator: ",").compactMap { entry -> (String, Double)? in
                        let parts = entry.split(separator: " ")
                        guard parts.count == 2, let w = Double(parts[1].dropLast()) else { return nil }
                        return (String(parts[0]), w)
                    }
                    check.check(candidates.count == BrowserGallery.sizes.count, "a srcset of every size: \(image)")
                    guard let chosen = candidates.first(where: { current.hasSuffix("/" + $0.0) }) else {
                        check.check(false, "currentSrc \(current) is not in the srcset")
                        continue
                    }
                    let needed = shown * screen.pixelRatio
                    let sharp = candidates.filter { $0.1 >= needed * 0.95 }.map(\.1).min() ?? candidates.map(\.1).max()!
                    check.check(chosen.1 == sharp, "chose \(chosen.1)w for \(shown) CSS px at \(screen.pixelRatio)x (smallest sharp: \(sharp)w)")
                }
            }
            for id in [1, 2, 6] {
                try await browser.open(gallery.url(try gallery.pagePath(id)))
                let check = try await PageCheck(browser, gallery, "photo-\(id)")
                try await check.noErrors()
                try await check.noSidewaysOverflow()
                let natural = try await browser.execute("return document.querySelector('figure.photo img').naturalWidth")
                check.check((number(natural) ?? 0) > 0, "the photo did not load")
            }
        }
    }

    /// The index's placeholders, seen with no thumbnail to load: a copy of the gallery without `thumbs/`.
    /// Every cell keeps its size and shows its photo's colours, not the empty stage.
    @Test func placeholdersShowBeforeThumbnailsLoad() async throws {
        try await withBrowser(.desktop) { browser, gallery in
            let copy = gallery.dir.file("no-thumbs")
            let made = try ProcessRunner.run("bash", ["-c", "cp -R \"$0\" \"$1\" && rm -rf \"$1/thumbs\"", gallery.folder, copy], timeout: 60)
            try #require(made.exitCode == 0, "\(made.stderrText)")
            try await browser.open(URL(fileURLWithPath: copy + "/index.html"))
            let cells = try await browser.execute("""
                return Array.from(document.querySelectorAll('.card img')).map(i => { const r = i.getBoundingClientRect();
                  return {background: getComputedStyle(i).backgroundImage, natural: i.naturalWidth,
                          x: r.left, y: r.top, width: r.width, height: r.height} })
                """) as? [[String: Any]] ?? []
            #expect(cells.count == BrowserGallery.perPage)
            let shot = gallery.dir.file("placeholders.png")
            try await browser.screenshot(to: shot)
            for cell in cells {
                let (x, y, width, height) = (number(cell["x"]) ?? 0, number(cell["y"]) ?? 0, number(cell["width"]) ?? 0, number(cell["height"]) ?? 0)
                #expect((cell["background"] as? String ?? "").hasPrefix("url(\"data:image/png;base64,"), "\(cell)")
                #expect(number(cell["natural"]) == 0, "no thumbnail loaded: \(cell)")
                #expect(width > 100 && abs(height - width * 3 / 4) < 2, "the cell keeps its 4:3 box: \(cell)")
                guard y + height < Double(BrowserSession.Screen.desktop.height) else { continue }
                // Two points of the cell: neither is the empty stage (#e9e9ee), and they differ (a blur, not a fill).
                var colours: [[Int]] = []
                for fraction in [0.3, 0.7] {
                    let px = Int(x + width * fraction), py = Int(y + height * 0.6)
                    let read = try ProcessRunner.run("convert", [shot, "-crop", "1x1+\(px)+\(py)", "-format",
                                                                 "%[fx:int(255*r+0.5)] %[fx:int(255*g+0.5)] %[fx:int(255*b+0.5)]", "info:"], timeout: 30)
                    colours.append(read.stdoutText.split(separator: " ").compactMap { Int($0) })
                }
                for colour in colours {
                    #expect(colour.count == 3 && zip(colour, [233, 233, 238]).contains { abs($0 - $1) > 8 }, "the stage shows: \(colour) in \(cell)")
                }
                #expect(colours[0] != colours[1], "one flat colour: \(colours)")
            }
        }
    }

    @Test func keysMoveBetweenPhotosAndBackToTheRightIndexPage() async throws {
        try await withBrowser(.desktop) { browser, gallery in
            let four = try gallery.pagePath(4), five = try gallery.pagePath(5)
            try await browser.open(gallery.url(four))
            try await browser.press(BrowserSession.Key.right)
            try await browser.waitForURL("photo 5 after Right") { $0.hasSuffix(five) }
            // Photo 5 is the first on index page 2: Escape goes there, to its card.
            try await browser.press(BrowserSession.Key.escape)
            try await browser.waitForURL("index page 2 after Escape") { $0.hasSuffix("/index-2.html#p5") }
            try await browser.open(gallery.url(five))
            try await browser.press(BrowserSession.Key.left)
            try await browser.waitForURL("photo 4 after Left") { $0.hasSuffix(four) }
            try await browser.press(BrowserSession.Key.up)
            try await browser.waitForURL("index page 1 after Up") { $0.hasSuffix("/index.html#p4") }
            // On the index, Left and Right move between index pages.
            try await browser.press(BrowserSession.Key.right)
            try await browser.waitForURL("index page 2 after Right") { $0.hasSuffix("/index-2.html") }
            try await browser.press(BrowserSession.Key.right)
            try await browser.waitForURL("index page 3 after Right") { $0.hasSuffix("/index-3.html") }
            try await browser.press(BrowserSession.Key.left)
            try await browser.waitForURL("index page 2 after Left") { $0.hasSuffix("/index-2.html") }
            let check = try await PageCheck(browser, gallery, "after-keys")
            try await check.noErrors()
        }
    }

    @Test func theNextPhotoIsPreloadedAndSwipesMove() async throws {
        try await withBrowser(.phone) { browser, gallery in
            // The session's first page: its network log holds this page's requests only.
            try await browser.open(gallery.url(try gallery.pagePath(4)))
            // The log hands each entry out once: gathered until photo 5's request is among them (or 15 s).
            var requested: [String] = []
            let deadline = Date().addingTimeInterval(15)
            while !requested.contains(where: { $0.contains("/005/5-") }) && Date() < deadline {
                requested += try await browser.networkEvents().filter { $0.method == "Network.requestWillBeSent" }
                    .compactMap { ($0.params["request"] as? [String: Any])?["url"] as? String }
                try await Task.sleep(for: .milliseconds(50))
            }
            let check = try await PageCheck(browser, gallery, "photo-4-phone")
            // Photo 5's image (the size the phone at 2x wants), fetched before any move.
            check.check(requested.contains { $0.contains("/005/5-") }, "photo 5's image was not preloaded: \(requested)")
            try await browser.swipe(fromX: 330, toX: 40, y: 300)
            try await browser.waitForURL("photo 5 after a swipe to the left") { $0.hasSuffix(try! gallery.pagePath(5)) }
            try await browser.swipe(fromX: 40, toX: 330, y: 300)
            try await browser.waitForURL("photo 4 after a swipe to the right") { $0.hasSuffix(try! gallery.pagePath(4)) }
            try await check.noErrors()
        }
    }

    @Test func markupInANameIsShownAsTextAndRunsNothing() async throws {
        try await withBrowser(.desktop) { browser, gallery in
            for page in ["index.html", try gallery.pagePath(2)] {
                try await browser.open(gallery.url(page))
                // Until every image has loaded or failed (an injected `onerror` would have run by then).
                try await browser.waitForImages()
                let alert = await browser.openAlertText()
                let check = try await PageCheck(browser, gallery, page.hasPrefix("index") ? "hostile-index" : "hostile-photo")
                check.check(alert == nil, "an alert ran: \(alert ?? "")")
                let text = try await browser.execute("return document.body.innerText") as? String ?? ""
                check.check(text.contains(BrowserGallery.hostileName), "the name is not shown as text")
                let injected = try await browser.execute("return document.querySelectorAll('img[src=\"x\"], img[onerror]').length")
                check.check(number(injected) == 0, "the name became an element")
                try await check.noErrors()
            }
        }
    }

    @Test func photoPagesShowExifAndLinksAndWorkWithoutJavaScript() async throws {
        try await withBrowser(.desktop, javaScript: false) { browser, gallery in
            try await browser.open(gallery.url(try gallery.pagePath(1)))
            let check = try await PageCheck(browser, gallery, "photo-1-no-js")
            let text = try await browser.execute("return document.body.innerText") as? String ?? ""
            for expected in ["Canon EOS R5", "RF24-105mm F4 L IS USM", "1/250 s", "f/8", "200", "35 mm", "2024-05-01 14:30:05+02:00",
                             "Original file", "By photographer 1"] {
                check.check(text.contains(expected), "\(expected) missing from the page")
            }
            check.check(!text.contains("Location") && !text.contains("48.8"), "the GPS position is shown without --show-location")
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: gallery.url("gallery.json"))) as? [String: Any]
            let exif = ((manifest?["photos"] as? [[String: Any]])?.first)?["exif"] as? [String: Any]
            check.check(exif?["model"] as? String == "Canon EOS R5" && exif?["latitude"] == nil, "manifest EXIF: \(String(describing: exif))")
            // The links work on their own: follow "next" by a click, with scripts off.
            let next = try await browser.findElement("a[rel~=\"next\"]")
            try await browser.click(next)
            try await browser.waitForURL("photo 2 after clicking next") { $0.hasSuffix(try! gallery.pagePath(2)) }
            let hint = try await browser.findElement(".keys")
            check.check(try await browser.isDisplayed(hint) == false, "the key hint shows without JavaScript")
        }
    }

    @Test func darkColoursAndAVisibleFocus() async throws {
        try await withBrowser(.desktop) { browser, gallery in
            try await browser.emulateColorScheme("dark")
            for page in ["index.html", try gallery.pagePath(1)] {
                try await browser.open(gallery.url(page))
                // Tab to the first link: it must show a focus ring.
                try await browser.press(BrowserSession.tabKey)
                let check = try await PageCheck(browser, gallery, "dark-" + (page.hasPrefix("index") ? "index" : "photo"))
                let style = try await browser.execute("""
                    const b = getComputedStyle(document.body), f = getComputedStyle(document.activeElement);
                    return [b.backgroundColor, b.color, document.activeElement.tagName, f.outlineStyle, f.outlineWidth]
                    """) as? [String] ?? []
                check.check(style.count == 5, "no style read: \(style)")
                guard style.count == 5 else { continue }
                check.check(style[0] == "rgb(17, 17, 17)" && style[1] == "rgb(245, 245, 247)", "not dark: \(style)")
                check.check(style[2] == "A" && style[3] == "solid" && style[4] == "3px", "focus not visible: \(style)")
                try await check.noErrors()
            }
        }
    }
}
