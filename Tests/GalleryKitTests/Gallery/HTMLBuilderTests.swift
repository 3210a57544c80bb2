import Testing
@testable import GalleryKit
@testable import PhotoGallery

@Suite struct HTMLBuilderTests {
    @Test func escapesTextAndAttributesByConstruction() {
        let node = Node.element("a", attributes: ["href": "x\" onclick=\"alert(1)", "title": "it's <b>"], children: [
            .text("<script>alert(1)</script> & more"),
        ])
        #expect(node.render() ==
            "<a href=\"x&quot; onclick=&quot;alert(1)\" title=\"it&#39;s &lt;b&gt;\">&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</a>")
    }

    @Test func nilAttributesAreLeftOutAndOrderIsKept() {
        let node = Node.element("img", attributes: ["src": "a.jpg", "srcset": nil, "alt": "", "loading": "lazy"])
        #expect(node.render() == "<img src=\"a.jpg\" alt=\"\" loading=\"lazy\">")
    }

    @Test func controlCharactersBecomeReplacementCharacters() {
        #expect(HTMLEscaping.escape("a\u{0}b\u{7}c\u{85}d\te\nf") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\te\nf")
    }

    /// Text without a byte to escape is written as it is; the check that decides so must send every string
    /// that needs escaping to the scalar-by-scalar path: each byte value alone and inside a name, and
    /// generated strings of ASCII, controls, entities' characters and non-ASCII text.
    @Test func unescapedTextIsWrittenAsItIsExactlyWhenNothingNeedsEscaping() {
        var samples = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        samples += (0..<0x80).map { "photo-" + String(UnicodeScalar(UInt8($0))) + "-12.jpg" }
        samples += ["", "Café", "\u{85}", "\u{202E}x", "שלום", "a b/c?d=e;f", "😀", "\u{FFFD}", "← All photos", "3 × 2 · 1 MB"]
        samples += (0x80...0x2FFF).compactMap { UnicodeScalar($0).map { "a" + String($0) + "b" } }
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "0", " ", "/", "&", "<", ">", "\"", "'", "\t", "\n", "\u{1}", "\u{7F}", "é", "\u{9F}", "\u{2066}", "ש",
                      // Either side of each escaped range of non-ASCII characters, and the page's own signs.
                      "\u{80}", "\u{A0}", "\u{202A}", "\u{202E}", "\u{2029}", "\u{202F}", "\u{2065}", "\u{2069}", "\u{206A}",
                      "←", "→", "‹", "›", "·", "×", "\u{1F600}"]
        for _ in 0..<2_000 {
            samples.append((0..<Int.random(in: 1...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for text in samples {
            #expect(HTMLEscaping.escape(text) == HTMLEscaping.escapedScalars(text), "\(Array(text.unicodeScalars))")
            var out = Array("x".utf8)
            HTMLEscaping.escape(text, into: &out)
            #expect(out == Array(("x" + HTMLEscaping.escapedScalars(text)).utf8))
        }
    }

    @Test func bidiOverridesAreNeutralisedButRTLTextAndMarksStay() {
        #expect(HTMLEscaping.escape("\u{202E}gpj.exe") == "\u{FFFD}gpj.exe")
        #expect(HTMLEscaping.escape("a\u{2066}b\u{2069}c\u{202A}d") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d")
        #expect(HTMLEscaping.escape("שלום\u{200F} עולם\u{200E}") == "שלום\u{200F} עולם\u{200E}")
    }

    @Test func trustedMarkupAndFragments() {
        let node = Node.fragment([.trusted(TrustedHTML("<br>")), .text("<br>")])
        #expect(node.render() == "<br>&lt;br&gt;")
    }

    @Test(arguments: Hostile.strings)
    func hostileTextNeverOpensATag(text: String) {
        let html = Node.element("p", attributes: ["title": text, "data-x": text], children: [.text(text)]).render()
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("\u{0}"))
        // Exactly the tags we wrote: one `<` opening, one closing.
        #expect(html.filter { $0 == "<" }.count == 2)
        #expect(html.filter { $0 == "\"" }.count == 4)
    }

    @Test func safeURLs() {
        #expect(SafeURL.web("https://127.0.0.1/p/1?a=b") == "https://127.0.0.1/p/1?a=b")
        #expect(SafeURL.web("HTTP://127.0.0.1/") != nil)
        for bad in ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<script>", "file:///etc/passwd",
                    "//127.0.0.1/x", "/relative", "http:///nohost", " javascript:alert(1)", "", "vbscript:x"] {
            #expect(SafeURL.web(bad) == nil, "\(bad)")
        }
        #expect(SafeURL.relative("photos/1-a.html") == "photos/1-a.html")
        #expect(SafeURL.relative("index.html", depth: 1) == "../index.html")
        #expect(SafeURL.relative("../../x/../y:z") == "x/y%3Az")
    }
}
