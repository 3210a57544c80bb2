import GallerySync
import Testing
@testable import PhotoGallery

/// A URL list's lines are found in its UTF-8 bytes: they must be exactly the lines Swift's Characters give
/// (`split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)`), every kind of line break, its
/// look-alikes (the bytes either side of each), and text around them.
@Suite struct TextLinesTests {
    static let pieces = [
        "a", "http://x/1.jpg", " ", "é", "\u{301}", "😀", "👩‍👩‍👧", "ש", "#",
        "\n", "\r", "\r\n", "\n\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}",
        "\u{84}", "\u{86}", "\u{A0}", "\u{2027}", "\u{202A}", "\u{2068}", "\u{1C}", "\u{1D}", "\u{1E}", "\u{09}",
    ]

    @Test func bytesGiveTheLinesCharactersGive() {
        var random = SplitMix64(seed: 29)
        var samples = ["", "\n", "\r\n", "a", "a\n", "\na", "a\r\nb\rc\nd\u{85}e\u{2028}f\u{2029}g\u{0B}h\u{0C}i"]
        samples += Self.pieces.flatMap { piece in [piece, "x" + piece, piece + "x", "x" + piece + "y"] }
        for _ in 0..<3_000 {
            let count = Int(random.next() % 14)
            samples.append((0..<count).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined())
        }
        for text in samples {
            let characters = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            let bytes = TextLines.all(Substring(text))
            #expect(bytes.map(String.init) == characters.map(String.init), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func eachLineEndsWhereTheNextBegins() {
        let text: Substring = "one\r\ntwo\u{2028}three"
        let first = TextLines.line(in: text, from: text.startIndex)
        #expect(text[..<first.end] == "one")
        let second = TextLines.line(in: text, from: first.next!)
        #expect(text[first.next!..<second.end] == "two")
        let third = TextLines.line(in: text, from: second.next!)
        #expect(text[second.next!..<third.end] == "three" && third.next == nil)
    }
}
