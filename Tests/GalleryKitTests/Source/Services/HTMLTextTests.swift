import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// MediaWiki `extmetadata` and Flickr descriptions reduced to text and one link.
@Suite struct HTMLTextTests {
    @Test func textKeepsTheFirstLinkAndDropsScripts() {
        let reduced = HTMLText.reduce(#"<a href="//commons.wikimedia.org/wiki/User:Ann" class="mw-user">Ann <script>alert(1)</script>&amp; Co</a>, <a href="https://x">other</a>"#)
        #expect(reduced.text == "Ann & Co, other")
        #expect(reduced.link == "https://commons.wikimedia.org/wiki/User:Ann")
    }

    @Test func entitiesAndWhitespaceAreFolded() {
        #expect(HTMLText.reduce("<p>A&nbsp;<b>bold</b>\n\n  step &#8211; &#x263A; &lt;tag&gt; &bogus; &#0;</p>").text
                == "A\u{A0}bold step – ☺ <tag> &bogus; \u{FFFD}")
    }

    @Test func theNamesRealPagesUseKeepEveryCharacter() {
        // Wikimedia Commons' extmetadata Artist, as the API sends it.
        let artist = HTMLText.reduce(#"<a href="//commons.wikimedia.org/wiki/User:Chlo%C3%A9?a=1&amp;b=2">Chlo&eacute; &lt;Studio 9&gt;</a>"#)
        #expect(artist.text == "Chloé <Studio 9>")
        #expect(artist.link == "https://commons.wikimedia.org/wiki/User:Chlo%C3%A9?a=1&b=2")
        #expect(HTMLText.reduce("Caf&eacute; &ndash; Stra&szlig;e &hellip; it&rsquo;s &auml;&ouml;&uuml; &copy; 2024 &mdash; &laquo;x&raquo;").text
                == "Café – Straße … it’s äöü © 2024 — «x»")
        // Decoded once: an escaped reference is text.
        #expect(HTMLText.reduce("&amp;eacute; &amp;amp;").text == "&eacute; &amp;")
        // Never across a tag.
        #expect(HTMLText.reduce("&ea<b></b>cute;").text == "&eacute;")
    }

    @Test func legacyNamesWithoutSemicolonAsABrowserReadsThem() {
        #expect(HTMLText.reduce("&copy 2024 &eacutex &notit; &notin; &amp &lt3").text == "© 2024 éx ¬it; ∉ & <3")
        #expect(HTMLText.reduce("&ndash &hellip").text == "&ndash &hellip", "not legacy names: need their semicolon")
        #expect(HTMLText.reduce("& &; &#; &#x; &#xZ; &").text == "& &; &#; &#x; &#xZ; &")
        // In an attribute a legacy name followed by `=` or a letter is left alone (a query string's `&copy=`).
        let link = HTMLText.reduce(#"<a href="https://x/?a=1&copy=2&copyx&copy;&amp;b">x</a>"#).link
        #expect(link == "https://x/?a=1&copy=2&copyx©&b")
    }

    @Test func numericReferencesFollowHTMLRulesForInvalidCodePoints() {
        let decode = { HTMLCharacterReferences.decode($0) }
        #expect(decode("&#233;&#xE9;&#XE9;&#233 &#x1F600;") == "éééé 😀")
        #expect(decode("&#x80;&#x85;&#150;&#x9F;") == "€…–Ÿ", "0x80–0x9F as Windows-1252")
        #expect(decode("&#x81;") == "\u{81}", "no Windows-1252 character: the code point")
        #expect(decode("&#0;&#xD800;&#xDFFF;&#x110000;&#99999999999999999999;") == String(repeating: "\u{FFFD}", count: 5))
        #expect(decode("&#65x") == "Ax")
    }

    @Test func theTableIsWHATWGsWholeList() throws {
        #expect(HTMLEntityTable.count == 2231 && HTMLCharacterReferences.names.count == 2231)
        #expect(HTMLCharacterReferences.names.keys.filter { !$0.hasSuffix(";") }.count == 106)
        #expect(HTMLCharacterReferences.names["CounterClockwiseContourIntegral;"] == "\u{2233}")
        #expect(HTMLCharacterReferences.names["NotEqualTilde;"] == "\u{2242}\u{338}")
        #expect(HTMLCharacterReferences.names["NewLine;"] == "\n" && HTMLCharacterReferences.names["Tab;"] == "\t")
        // Entry for entry, Python's copy of the list (python3 is one of the test dependencies).
        let python = try ProcessRunner.run("/usr/bin/env", ["python3", "-c",
            "import html.entities, json, sys; json.dump(html.entities.html5, sys.stdout)"], timeout: 30)
        #expect(python.exitCode == 0, "\(python.stderrText)")
        let reference = try JSONSerialization.jsonObject(with: python.stdout) as? [String: String]
        #expect(reference?.mapValues { Array($0.unicodeScalars) } == HTMLCharacterReferences.names.mapValues { Array($0.unicodeScalars) })
    }

    @Test func whitespaceIsFoldedByCodePoint() {
        // A space a combining mark follows is one grapheme with it, but still a space to HTML (found by the
        // html-text fuzzer: "a  \u{301}" kept two spaces).
        #expect(HTMLText.reduce("a  \u{301}b").text.unicodeScalars.elementsEqual("a \u{301}b".unicodeScalars))
        #expect(HTMLText.reduce(" \t\r\n\u{0C}x \r\n y\n").text == "x y")
        #expect(HTMLText.reduce("\u{A0}x\u{A0}").text == "\u{A0}x\u{A0}", "a no-break space is text")
    }

    @Test func anUnclosedTagIsText() {
        #expect(HTMLText.reduce("a < b and c").text == "a < b and c")
        #expect(HTMLText.reduce("").text.isEmpty && HTMLText.reduce("").link == nil)
    }

    @Test func singleQuotedAndBareAttributes() {
        #expect(HTMLText.attribute("href", in: "a href='https://a/b' x") == "https://a/b")
        #expect(HTMLText.attribute("href", in: "a HREF=https://c/d>") == "https://c/d")
        #expect(HTMLText.attribute("href", in: "a href = \"https://e/f\"") == "https://e/f")
        // A name that only ends like it, and an empty value, are no link (found by the html-text fuzzer:
        // `<a href= &">` gave an empty link).
        #expect(HTMLText.attribute("href", in: "a data-href=\"https://g\" class=x") == nil)
        #expect(HTMLText.attribute("href", in: "a data-href=x href=https://h") == "https://h")
        #expect(HTMLText.attribute("href", in: "a href= &\"") == "&\"")
        #expect(HTMLText.attribute("href", in: "a href=\"\"") == nil && HTMLText.attribute("href", in: "a href=") == nil)
        #expect(HTMLText.reduce(#"<a href="">x</a> <a href='https://i'>y</a>"#).link == "https://i")
    }
}

/// How ids of every service become gallery ids (and so file names and sub-folders).
@Suite struct PhotoIDTests {
    @Test func numericIdsAreKept() {
        #expect(PhotoID.gallery(source: "commons", id: "4016878") == 4_016_878)
        #expect(PhotoID.gallery(source: "flickr", id: "53766110000") == 53_766_110_000)
        #expect(GalleryNaming.bucket(id: PhotoID.gallery(source: "pexels", id: "2014422")) == "422")
    }

    @Test func otherIdsAreStableHashesPrefixedBySource() {
        let uuid = "4bc43a04-ef46-4544-a0c1-63c63f56e276"
        let id = PhotoID.gallery(source: "openverse", id: uuid)
        #expect(id == PhotoID.gallery(source: "openverse", id: uuid), "the same on every run")
        #expect(id == URLListParser.stableID(for: "openverse:" + uuid))
        #expect(id > 0 && id <= 0x001F_FFFF_FFFF_FFFF)
        #expect(PhotoID.gallery(source: "unsplash", id: uuid) != id, "the source keeps services apart")
        #expect(GalleryNaming.bucket(id: id) == String(format: "%03d", id % 1000))
        #expect(PhotoID.gallery(source: "x", id: "0") != 0 && PhotoID.gallery(source: "x", id: "-5") > 0)
    }
}
