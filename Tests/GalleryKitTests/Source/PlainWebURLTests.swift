import Foundation
import GallerySync
import Testing
@testable import PhotoGallery

/// A URL told plain from its bytes must be one Foundation's parser accepts as an http(s) URL with a host and
/// gives back unchanged, and its name must be the one Foundation's path gives: checked on URLs made of every
/// kind of piece, well-formed and not.
@Suite struct PlainWebURLTests {
    static let schemes = ["http://", "https://", "HTTP://", "Https://", "ftp://", "http:/", "http:", "", "javascript:"]
    static let hosts = ["x", "127.0.0.1", "Example.COM", "a-b.c", "", "x..", "[::1]", "a b", "é.com", "x_y", "u@x", "-x-"]
    static let ports = ["", ":80", ":", ":65535", ":123456", ":8a", "::1"]
    static let pathPieces = ["/", "a", ".jpg", "b.c", "%20", "%2", "%zz", "%C3%A9", "~", "(1)", "'", " ", "#f", "?q=1", "&",
                             "é", "\"", "<", ">", "@", ":", "//", "..", "...", "!$*+,;=", "\\", "|", "{", "^", "`", "[", "]", "\t"]

    static func samples() -> [String] {
        var random = SplitMix64(seed: 41)
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        var samples = ["http://127.0.0.1:8080/p00017.jpg", "https://images.example.com/a/b/c.jpg?w=800&h=600",
                       "http://x", "http://x/", "http://x?a=b", "http://x/.jpg", "http://x/a.b.c", "http://x/dir/"]
        // Half from every piece, half from the well-formed ones only (URLs as lists hold them).
        let good = (schemes: Array(schemes[0..<2]), hosts: Array(hosts[0..<4]), ports: Array(ports[0..<2]) + [":65535"],
                    path: ["/", "a", ".jpg", "b.c", "%20", "%C3%A9", "~", "(1)", "'", "?q=1", "&", "@", ":", "//", "..", "!$*+,;="])
        for round in 0..<6_000 {
            let all = round % 2 == 0
            var text = pick(all ? schemes : good.schemes) + pick(all ? hosts : good.hosts) + pick(all ? ports : good.ports)
            for _ in 0..<Int(random.next() % 7) { text += pick(all ? pathPieces : good.path) }
            samples.append(text)
        }
        return samples
    }

    @Test func plainURLsAreWhatFoundationGivesBack() {
        var plain = 0
        for text in Self.samples() where PlainWebURL.isPlain(text) {
            plain += 1
            let foundation = PhotoSelector.webURL(text)
            #expect(foundation?.absoluteString == text, "\(text): Foundation gives \(foundation?.absoluteString ?? "nothing")")
            #expect(SafeURL.web(text) == text)
        }
        #expect(plain > 500, "the samples hold plain URLs to check")
    }

    @Test func aPlainURLsNameIsFoundationsName() {
        var named = 0
        for text in Self.samples() {
            guard let stem = PlainWebURL.stem(text) else { continue }
            named += 1
            #expect(PlainWebURL.isPlain(text))
            let url = try? #require(PhotoSelector.webURL(text))
            #expect(url.map(URLListParser.name(for:)) == stem, "\(text)")
        }
        #expect(named > 100, "the samples hold named plain URLs to check")
    }

    @Test func commonURLsArePlainAndOthersAreNot() {
        #expect(PlainWebURL.isPlain("http://127.0.0.1:8080/p00017.jpg"))
        #expect(PlainWebURL.stem("https://cdn.example.org/photos/2024/sunset.final.jpg?w=800") == "sunset.final")
        for text in ["http://", "http:///a", "http://a b/c", "http://x/a b", "http://x/a%2", "http://x/#f", "HTTP://x/a",
                     "javascript:alert(1)", "http://[::1]/a", "http://x:/a", "http://x:123456/a", "http://é.com/a"] {
            #expect(!PlainWebURL.isPlain(text), "\(text)")
        }
        #expect(PlainWebURL.stem("http://x/a%20b.jpg") == nil, "a percent escape is decoded by Foundation")
        #expect(PlainWebURL.stem("http://x/") == nil && PlainWebURL.stem("http://x/.jpg") == nil, "the host names these")
    }
}
