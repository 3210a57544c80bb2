import Testing
@testable import GalleryKit

/// MediaWiki `extmetadata` and Flickr descriptions reduced to text and one link.
@Suite struct HTMLTextTests {
    @Test func textKeepsTheFirstLinkAndDropsScripts() {
        let reduced = HTMLText.reduce(#"<a href="//commons.wikimedia.org/wiki/User:Ann" class="mw-user">Ann <script>alert(1)</script>&amp; Co</a>, <a href="https://x">other</a>"#)
        #expect(reduced.text == "Ann & Co, other")
        #expect(reduced.link == "https://commons.wikimedia.org/wiki/User:Ann")
    }

    @Test func entitiesAndWhitespaceAreFolded() {
        #expect(HTMLText.reduce("<p>A&nbsp;<b>bold</b>\n\n  step &#8211; &#x263A; &lt;tag&gt; &bogus; &#0;</p>").text
                == "A bold step – ☺ <tag> &bogus; &#0;")
    }

    @Test func anUnclosedTagIsText() {
        #expect(HTMLText.reduce("a < b and c").text == "a < b and c")
        #expect(HTMLText.reduce("").text.isEmpty && HTMLText.reduce("").link == nil)
    }

    @Test func singleQuotedAndBareAttributes() {
        #expect(HTMLText.attribute("href", in: "a href='https://a/b' x") == "https://a/b")
        #expect(HTMLText.attribute("href", in: "a HREF=https://c/d>") == "https://c/d")
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
        #expect(id == URLListSource.stableID(for: "openverse:" + uuid))
        #expect(id > 0 && id <= 0x001F_FFFF_FFFF_FFFF)
        #expect(PhotoID.gallery(source: "unsplash", id: uuid) != id, "the source keeps services apart")
        #expect(GalleryNaming.bucket(id: id) == String(format: "%03d", id % 1000))
        #expect(PhotoID.gallery(source: "x", id: "0") != 0 && PhotoID.gallery(source: "x", id: "-5") > 0)
    }
}
