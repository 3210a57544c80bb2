import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The page text made without Foundation's formatters and encoders (for speed) against what those give.
@Suite struct PageTextTests {
    /// Every rounding edge of each unit, and a spread of sizes from bytes to terabytes, as ByteCountFormatter writes them.
    @Test func byteCountsReadAsByteCountFormatterWritesThem() {
        var counts: [Int64] = [0, 1, 2, 999, 1_000, 1_499, 1_500, 2_500, 3_500, 9_949, 9_950, 99_499, 99_500, 999_499, 999_500,
                               999_999, 1_000_000, 1_049_999, 1_050_000, 1_150_000, 1_250_000, 1_350_000, 9_949_999, 9_950_000,
                               999_949_999, 999_950_000, 1_000_000_000, 1_005_000_000, 1_015_000_000, 1_234_567_890,
                               999_994_999_999, 999_995_000_000, 1_000_000_000_000, 12_345_678_901_234, -5, 1 << 62]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<4_000 {  // sizes spread evenly over the orders of magnitude
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let magnitude = Double(state >> 11) / Double(1 << 53) * 13
            counts.append(Int64(pow(10, magnitude)))
        }
        for count in counts {
            #expect(ByteCountText.file(count) == ByteCountFormatter.string(fromByteCount: count, countStyle: .file), "\(count)")
        }
    }

    /// A photo's shown name is "Untitled" exactly when Foundation's trimming of whitespace and newlines
    /// leaves nothing, whatever the shortcut for names that start with a visible ASCII character.
    @Test func blankNamesShowAsUntitled() {
        for name in ["", " ", "\t\n\r", "\u{0B}\u{0C}", "\u{85}", "\u{A0}", "\u{2003} \u{3000}", "\u{2028}", " a", "a", "a ",
                     "\u{7F}", "\u{1}", "!", "~", "Ünï", "\u{A0}x", "日本"] {
            let blank = name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            #expect(GalleryDocument.displayName(name) == (blank ? "Untitled" : name), "\(Array(name.unicodeScalars))")
        }
    }

    /// Relative links percent-encode exactly what addingPercentEncoding does with the unreserved set.
    @Test func relativeLinksEncodeAsFoundationDoes() {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for name in ["1-a.jpg", "ünïcödé name.png", "a b%c?d#e&f", "日本語.webp", "x:y", "🙂.gif", "e\u{301}.jpg", "~._-"] {
            let expected = "../photos/abc/" + name.addingPercentEncoding(withAllowedCharacters: unreserved)!
            #expect(SafeURL.relative("photos/abc/" + name, depth: 1) == expected, "\(name)")
        }
        #expect(SafeURL.relative("/photos//./x/../y", depth: 0) == "photos/x/y")
        #expect(SafeURL.relative("", depth: 2) == "../../")
    }
}
