import Foundation

/// File names and paths inside the gallery folder, derived from a photo's id and name.
///
/// Names are deterministic (a re-run finds the same files) and safe by construction:
/// `[a-z0-9-]` plus one dot before the extension, never `/`, never `..`, never empty, and
/// at most 255 bytes (the Linux limit for one path component). The id comes first, so two
/// photos with the same name never collide:
/// `12345-sunset-over-the-bay.jpg`.
///
/// Folder layout, all relative to the gallery root, fanned out by ``bucket(id:)`` (the id's last three
/// digits) so that no folder holds more than about 10,000 entries up to ten million photos:
/// - `photos/BBB/ID-slug.EXT`: the originals, byte for byte as the server sent them
/// - `thumbs/SIZE/BBB/ID-slug.EXT`
/// - `pages/BBB/ID-slug.html`: the page per photo
/// - `index.html` (then `index-2.html`...), `gallery.json`, `.fetch-gallery/journal.jsonl`
///
/// Galleries made before the fan-out keep `photos/ID-slug.EXT` and `thumbs/SIZE/ID-slug.EXT`: the
/// journal records every file's path, so those are read where they are (``legacyOriginalPath(id:name:extension:)``).
public enum GalleryNaming {
    /// Longest file name most Linux file systems accept, in bytes.
    public static let maxNameBytes = 255
    /// What an empty or entirely non-Latin name becomes.
    public static let fallbackSlug = "photo"

    /// The gallery's index page, relative to its root.
    public static let indexPath = "index.html"
    /// The manifest, relative to the gallery root.
    public static let manifestPath = "gallery.json"
    /// The run's journal, relative to the gallery root.
    public static let journalPath = ".fetch-gallery/journal.jsonl"

    /// The folder of the per-photo pages.
    public static let pagesFolder = "pages"

    /// Bytes kept free in an original's name for the suffixes the download engine adds while the
    /// file is partial (`NAME.part`, `NAME.part.meta`, and `NAME.part.meta.tmp` while the sidecar is
    /// replaced): without them a 255-byte name cannot be downloaded.
    public static let partialSuffixRoom = ".part.meta.tmp".utf8.count

    /// `ID-slug.EXT`, at most 255 bytes (less `reserving` bytes for suffixes added later).
    public static func fileName(id: Int, name: String, extension ext: String, reserving: Int = 0) -> String {
        let cleanExt = sanitizedExtension(ext)
        // A negative id would start the name with "-", which shell tools read as an option.
        let head = id < 0 ? "n\(id.magnitude)-" : "\(id)-"
        let tail = "." + cleanExt
        let room = maxNameBytes - max(0, reserving) - head.utf8.count - tail.utf8.count
        return head + slug(name, maxLength: room) + tail
    }

    /// Sub-folders per fanned-out folder.
    public static let buckets = 1000

    /// The sub-folder of photo `id`'s files: the last three digits of its id (`4016878` → `878`).
    /// Ids from a URL list are hashes and ids from an API are spread over their low digits, so the
    /// thousand folders fill evenly; one level keeps a small gallery's paths short.
    public static func bucket(id: Int) -> String {
        let value = Int(id.magnitude % UInt(buckets))
        return value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }

    /// File name of the downloaded original, in either layout (room left for the engine's `.part.meta`
    /// while it downloads).
    public static func originalFileName(id: Int, name: String, extension ext: String) -> String {
        fileName(id: id, name: name, extension: ext, reserving: partialSuffixRoom)
    }

    /// Path of the downloaded original.
    public static func originalPath(id: Int, name: String, extension ext: String) -> String {
        "photos/" + bucket(id: id) + "/" + originalFileName(id: id, name: name, extension: ext)
    }

    /// Where the original was before the fan-out (`photos/ID-slug.EXT`): found there, it is used there.
    public static func legacyOriginalPath(id: Int, name: String, extension ext: String) -> String {
        "photos/" + originalFileName(id: id, name: name, extension: ext)
    }

    /// Path of the thumbnail whose longest edge is `size` pixels.
    public static func thumbnailPath(id: Int, name: String, size: Int, extension ext: String = "jpg") -> String {
        "thumbs/\(max(size, 0))/" + bucket(id: id) + "/" + fileName(id: id, name: name, extension: ext)
    }

    /// Path of the page showing one photo.
    public static func photoPagePath(id: Int, name: String) -> String {
        pagesFolder + "/" + bucket(id: id) + "/" + fileName(id: id, name: name, extension: "html")
    }

    /// A lower-case ASCII slug of `name`: accents folded (`é` → `e`, `ß` → `ss`), every run
    /// of other characters turned into one `-`, no leading or trailing `-`, cut to
    /// `maxLength` at a word boundary when it can be, and `photo` when nothing is left.
    public static func slug(_ name: String, maxLength: Int = 80) -> String {
        // ASCII has no decomposition and nothing to spell out: most names skip the (costly) folding.
        var out = name.utf8.allSatisfy({ $0 < 0x80 }) ? asciiRuns(name, maxLength: maxLength)
            : characterRuns(fold(name), maxLength: maxLength)
        // `out` is ASCII: its count is its length in bytes.
        if out.utf8.count > maxLength {
            out = String(out.prefix(maxLength))
            // Prefer to end at a word boundary, unless that throws most of the slug away.
            if let dash = out.lastIndex(of: "-"), out.distance(from: out.startIndex, to: dash) > maxLength / 2 {
                out = String(out[..<dash])
            }
            while out.hasSuffix("-") { out.removeLast() }
        }
        return out.isEmpty ? String(fallbackSlug.prefix(max(maxLength, 1))) : out
    }

    /// The slug's letters and digits, lower-cased, each run of anything else one `-` between them, up to
    /// one character past `maxLength`: the result depends only on the first `maxLength` characters and on
    /// there being more, so a 5,000-character name stops there instead of being walked to the end.
    static func characterRuns(_ name: String, maxLength: Int) -> String {
        var out = ""
        var length = 0  // characters in `out`, all ASCII (String.count would walk it every time)
        var pendingDash = false
        for character in name {
            if character.isASCII, character.isLetter || character.isNumber {
                if pendingDash && length > 0 {
                    out.append("-")
                    length += 1
                }
                pendingDash = false
                out.append(contentsOf: character.lowercased())
                length += 1
                if length > maxLength { break }
            } else {
                pendingDash = true
            }
        }
        return out
    }

    /// ``characterRuns(_:maxLength:)`` for an ASCII name, a byte at a time: the ASCII letters and digits are
    /// `[A-Za-z0-9]`, and no other ASCII character, "\r\n" included, is one (most names and every file
    /// name of a URL list take this way; walking Characters cost a grapheme break test a byte).
    static func asciiRuns(_ name: String, maxLength: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(max(0, min(name.utf8.count, maxLength + 1)))
        var pendingDash = false
        for byte in name.utf8 {
            let lower = byte | 0x20  // 'A'...'Z' to 'a'...'z'; digits already have the bit
            let isLetter = lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
            guard isLetter || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else {
                pendingDash = true
                continue
            }
            if pendingDash && !out.isEmpty { out.append(UInt8(ascii: "-")) }
            pendingDash = false
            out.append(isLetter ? lower : byte)
            if out.count > maxLength { break }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `[a-z0-9]`, at most 8 characters, `bin` when nothing is left.
    static func sanitizedExtension(_ ext: String) -> String {
        // An extension this program asks for ("jpg", "html") is already clean: returned as it is.
        if ext.utf8.count <= 8, !ext.isEmpty,
           ext.utf8.allSatisfy({ ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }) {
            return ext
        }
        let clean = ext.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        let text = String(String.UnicodeScalarView(clean.prefix(8)))
        return text.isEmpty ? "bin" : text
    }

    /// Compatibility decomposition drops accents and unfolds ligatures and full-width forms;
    /// the few Latin letters that do not decompose are spelled out by hand.
    private static func fold(_ name: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in name.decomposedStringWithCompatibilityMapping.unicodeScalars {
            // ASCII is neither a mark nor spelled out: skip both lookups for the common case.
            if scalar.isASCII {
                out.append(scalar)
                continue
            }
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if let spelled = spelledOut[scalar] {
                out.append(contentsOf: spelled.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static let spelledOut: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "œ": "oe", "Œ": "OE",
        "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "TH", "ı": "i",
    ]
}
