import Foundation
import GallerySync
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

extension URLListParserTests {
    @Test("a line is trimmed as Foundation's whitespacesAndNewlines trims it, with or without the ASCII shortcut")
    func trimmingMatchesFoundation() {
        var random = SplitMix64(seed: 11)
        // Printable ASCII, every kind of whitespace and newline Foundation trims, and non-ASCII that it keeps.
        let pieces = ["a", "h", "/", "#", "%", "~", "!", " ", "\t", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{A0}",
                      "\u{1680}", "\u{2003}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{3000}", "\u{200B}", "é", "日", "\u{301}"]
        var shortcuts = 0
        for _ in 0..<5_000 {
            let line = (0..<Int(random.next() % 7)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let substring = Substring(line)
            #expect(URLListParser.trimmed(substring) == substring.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(line.unicodeScalars))")
            if let f = line.utf8.first, let l = line.utf8.last, (0x21...0x7E).contains(f), (0x21...0x7E).contains(l) { shortcuts += 1 }
        }
        #expect(shortcuts > 100)
    }
}
