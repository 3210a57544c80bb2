import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

@Suite struct GalleryNamingTests {
    @Test(arguments: [
        ("Sunset over the Bay", "12345-sunset-over-the-bay.jpg"),
        ("Crème Brûlée à Paris", "12345-creme-brulee-a-paris.jpg"),
        ("Straße & Øresund — Łódź", "12345-strasse-oresund-lodz.jpg"),
        ("ﬁne ＦＵＬＬ width", "12345-fine-full-width.jpg"),
        ("../../etc/passwd", "12345-etc-passwd.jpg"),
        ("日本の夕日", "12345-photo.jpg"),
        ("", "12345-photo.jpg"),
        ("---", "12345-photo.jpg"),
    ])
    func examples(name: String, expected: String) {
        #expect(GalleryNaming.fileName(id: 12345, name: name, extension: "jpg") == expected)
    }

    @Test(arguments: Hostile.strings)
    func hostileNamesStaySafe(name: String) {
        for ext in ["jpg", "JPEG", "../sh", "", "p\u{0}ng"] {
            let file = GalleryNaming.fileName(id: 987_654_321, name: name, extension: ext)
            #expect(file.utf8.count <= 255)
            #expect(!file.contains("/") && !file.contains("..") && !file.contains("\u{0}"))
            #expect(file.hasPrefix("987654321-"))
            let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-.")
            #expect(file.allSatisfy { allowed.contains($0) }, "\(file)")
            #expect(file.filter { $0 == "." }.count == 1)
            // Deterministic: the same input gives the same name.
            #expect(file == GalleryNaming.fileName(id: 987_654_321, name: name, extension: ext))
        }
    }

    @Test func negativeIdsDoNotStartWithADash() {
        #expect(GalleryNaming.fileName(id: -42, name: "x", extension: "jpg") == "n42-x.jpg")
        #expect(GalleryNaming.fileName(id: Int.min, name: "x", extension: "jpg").utf8.count <= 255)
    }

    @Test func longNamesAreCutToTheLimitAtAWordBoundary() {
        let long = Array(repeating: "wonderful", count: 60).joined(separator: " ")
        let file = GalleryNaming.fileName(id: Int.max, name: long, extension: "jpeg")
        #expect(file.utf8.count <= 255)
        #expect(file.hasSuffix("-wonderful.jpeg"))
        let unbroken = GalleryNaming.fileName(id: 1, name: String(repeating: "a", count: 1000), extension: "jpg")
        #expect(unbroken.utf8.count == 255)
    }

    /// An ASCII name takes a byte-at-a-time way to its slug: on every kind of ASCII text (controls, "\r\n",
    /// punctuation, both cases, digits) and at every limit it gives what walking its Characters gives.
    @Test func asciiNamesSlugAsTheirCharactersDo() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "q", "M", "0", "9", " ", "-", "_", ".", "/", "@", "[", "`", "{", "~", "\r\n", "\n", "\t",
                      "\u{0}", "\u{1F}", "\u{7F}", "!!", "Ab3"]
        var names = ["", "-", "a", "\r\n", String(repeating: "x", count: 300), "A B C", "@[`{"]
        for _ in 0..<3_000 {
            names.append((0..<Int.random(in: 1...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for name in names {
            for limit in [-1, 0, 1, 2, 7, 30, 80, 200] {
                #expect(GalleryNaming.asciiRuns(name, maxLength: limit) == GalleryNaming.characterRuns(name, maxLength: limit),
                        "\(Array(name.utf8)) at \(limit)")
            }
        }
    }

    /// A clean extension is returned as it is; any other is cleaned as before (lower case, letters and digits,
    /// 8 at most, `bin` when none is left).
    @Test(arguments: [("jpg", "jpg"), ("html", "html"), ("JPEG", "jpeg"), ("tar.gz", "targz"), ("abcdefghij", "abcdefgh"),
                      ("", "bin"), ("..", "bin"), ("p\u{0}ng", "png"), ("webp", "webp"), ("\u{212A}b", "kb"), ("a1b2c3d4", "a1b2c3d4")])
    func extensionsAreCleaned(ext: String, expected: String) {
        #expect(GalleryNaming.sanitizedExtension(ext) == expected)
    }

    @Test(arguments: [
        ("abc def", "abc-def"),         // exactly the limit: kept whole
        ("abc defg", "abc-def"),        // one over, word boundary too early (not past half): cut mid-word
        ("abcd efgh", "abcd"),          // one over, boundary past half: cut there
        ("abcdefg hij", "abcdefg"),     // the limit ends a word
        ("abcdefg!!!", "abcdefg"),      // trailing separators never leave a dash
        ("ab cd ef gh", "ab-cd"),
    ])
    func slugCutsAtTheLimit(name: String, expected: String) {
        #expect(GalleryNaming.slug(name, maxLength: 7) == expected)
    }

    /// The slug stops reading once it has one character more than it keeps: a huge name costs no more
    /// than a short one and still gives the same cut.
    @Test func hugeNamesGiveTheSameSlugAsTheirStart() {
        let start = Array(repeating: "wonderful", count: 30).joined(separator: " ")
        let huge = start + String(repeating: " wonderful", count: 200_000) + " 日本の夕日 ÉTÉ"
        #expect(GalleryNaming.slug(huge, maxLength: 200) == GalleryNaming.slug(start, maxLength: 200))
        #expect(GalleryNaming.slug(huge, maxLength: 200).hasSuffix("-wonderful"))
    }

    @Test func pathsStayInsideTheFolder() {
        for name in Hostile.strings {
            for path in [
                GalleryNaming.originalPath(id: 1, name: name, extension: "jpg"),
                GalleryNaming.thumbnailPath(id: 1, name: name, size: 320),
                GalleryNaming.photoPagePath(id: 1, name: name),
            ] {
                let parts = path.split(separator: "/", omittingEmptySubsequences: false)
                #expect(!path.hasPrefix("/"))
                #expect(parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." && $0.utf8.count <= 255 })
                #expect(URL(fileURLWithPath: "/g/" + path).standardized.path.hasPrefix("/g/"))
            }
        }
        #expect(GalleryNaming.thumbnailPath(id: 7, name: "A b", size: 640) == "thumbs/640/007/7-a-b.jpg")
        #expect(GalleryNaming.photoPagePath(id: 7, name: "A b") == "pages/007/7-a-b.html")
        #expect(GalleryNaming.originalPath(id: 4_016_878, name: "A b", extension: "jpg") == "photos/878/4016878-a-b.jpg")
        #expect(GalleryNaming.legacyOriginalPath(id: 4_016_878, name: "A b", extension: "jpg") == "photos/4016878-a-b.jpg")
        #expect(GalleryNaming.bucket(id: -42) == "042" && GalleryNaming.bucket(id: 1_000) == "000")
    }

    /// A name whose slug fills the room: every file the download engine makes beside the original
    /// (`.part`, `.part.meta`, and the sidecar's `.part.meta.tmp` while it is replaced) still fits.
    /// Found by the browser tests' 300-character name: `.part.meta.tmp` was 4 bytes too long.
    @Test func anOriginalsPartialFilesFitTheNameLimit() {
        let name = "A" + String(repeating: "verylongwordwithoutspaces", count: 12)
        let file = (GalleryNaming.originalPath(id: 6, name: name, extension: "jpg") as NSString).lastPathComponent
        #expect((file + ".part.meta.tmp").utf8.count <= 255)
        #expect((file + ".part.meta.tmp").utf8.count >= 250, "the slug still uses the room")
    }
}
