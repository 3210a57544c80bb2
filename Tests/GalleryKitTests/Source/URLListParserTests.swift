import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

@Suite struct URLListParserTests {
    @Test func parsesAcceptsAndReports() {
        let source = URLListParser(parsing: """
        # holiday photos
        http://127.0.0.1:8080/img/Sunset%20Bay.jpg

          https://127.0.0.1/a/b/c.png?x=1  
        ftp://127.0.0.1/x.jpg
        not a url
        file:///etc/passwd
        javascript:alert(1)
        http://127.0.0.1:8080/img/Sunset%20Bay.jpg
        http://127.0.0.1/
        """)
        #expect(source.photos.map(\.name) == ["Sunset Bay", "c", "127.0.0.1"])
        #expect(source.photos.map(\.imageURL) == [
            "http://127.0.0.1:8080/img/Sunset%20Bay.jpg", "https://127.0.0.1/a/b/c.png?x=1", "http://127.0.0.1/",
        ])
        #expect(source.rejected.map(\.line) == [5, 6, 7, 8])
        #expect(source.rejected.allSatisfy { $0.reason.contains("http") })
    }

    @Test func idsAreStablePositiveAndDistinct() {
        let a = URLListParser.stableID(for: "http://127.0.0.1/a.jpg")
        #expect(a == URLListParser.stableID(for: "http://127.0.0.1/a.jpg"))
        #expect(a != URLListParser.stableID(for: "http://127.0.0.1/b.jpg"))
        #expect(a > 0 && a < 1 << 53)
        // Pinned: FNV-1a 64 of the empty string masked to 53 bits, so a change of hash is noticed.
        #expect(URLListParser.stableID(for: "") == Int(UInt64(0xcbf2_9ce4_8422_2325) & 0x001F_FFFF_FFFF_FFFF))
    }

    @Test func crlfAndEmptyInput() {
        #expect(URLListParser(parsing: "").photos.isEmpty)
        #expect(URLListParser(parsing: "\u{FEFF}http://127.0.0.1/bom.jpg\n").photos.map(\.name) == ["bom"])
        let source = URLListParser(parsing: "http://127.0.0.1/1.jpg\r\nhttp://127.0.0.1/2.jpg\r\n")
        #expect(source.photos.map(\.name) == ["1", "2"])
        #expect(source.rejected.isEmpty)
    }
}
