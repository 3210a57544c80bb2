/// The parts of a path, read from its text: its folder, its last component and that component's
/// extension, as `NSString`'s `deletingLastPathComponent`, `lastPathComponent` and `pathExtension` give them.
///
/// Made for the paths this program builds (a folder, then names joined by single slashes), and read
/// in their bytes: the Foundation versions first copy the whole path into a new string with its slashes
/// fixed, a few microseconds each, and a photo names several paths. And `deletingLastPathComponent` stops
/// the process on a path of one character (`"a"`, swift-corelibs-foundation in Swift 6.3), where
/// ``directory(_:)`` answers `""`.
///
/// Trailing slashes are ignored, as Foundation ignores them. Repeated slashes inside a path are kept
/// as written, where Foundation folds them into one: the file system reads both the same.
public enum PathText {
    private static let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")

    /// The path without its last component: `"photos/577"` for `"photos/577/a.jpg"`, `"/"` for `"/a"`,
    /// and `""` for a name with no folder.
    public static func directory(_ path: String) -> String {
        bytes(of: path) { bytes in
            guard let last = lastComponent(in: bytes) else { return bytes.isEmpty ? "" : "/" }
            guard last.lowerBound > 0 else { return "" }
            var cut = last.lowerBound - 1
            while cut > 0 && bytes[cut - 1] == slash { cut -= 1 }
            return cut == 0 ? "/" : String(decoding: bytes[..<cut], as: UTF8.self)
        }
    }

    /// The folder that holds `path`, for a system call: ``directory(_:)``, or `"."` for a bare name.
    public static func folder(of path: String) -> String {
        let folder = directory(path)
        return folder.isEmpty ? "." : folder
    }

    /// The last component: `"a.jpg"` for `"photos/577/a.jpg"` (and for `"photos/577/a.jpg/"`), `"/"` for
    /// `"/"`.
    public static func lastComponent(_ path: String) -> String {
        bytes(of: path) { bytes in
            guard let last = lastComponent(in: bytes) else { return bytes.isEmpty ? "" : "/" }
            return String(decoding: bytes[last], as: UTF8.self)
        }
    }

    /// The last component's extension, without its dot and as written: `"JPG"` for `"a/b.JPG"`, `""` for
    /// `"a/b"`, `"a/.hidden"` or `"a/b."`.
    public static func fileExtension(_ path: String) -> String {
        bytes(of: path) { bytes in
            // A dot that begins the name (".hidden") starts no extension.
            guard let last = lastComponent(in: bytes), let dotAt = bytes[last].lastIndex(of: dot),
                  dotAt > last.lowerBound else { return "" }
            return String(decoding: bytes[(dotAt + 1)..<last.upperBound], as: UTF8.self)
        }
    }

    /// Where the last component lies in `bytes`, trailing slashes left out; nil when nothing is left (an
    /// empty path, or slashes only).
    private static func lastComponent(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var end = bytes.count
        while end > 0 && bytes[end - 1] == slash { end -= 1 }
        guard end > 0 else { return nil }
        return (bytes[..<end].lastIndex(of: slash).map { $0 + 1 } ?? 0)..<end
    }

    /// `body` over the path's UTF-8, without copying it (a native string's bytes are contiguous).
    private static func bytes(of path: String, _ body: (UnsafeBufferPointer<UInt8>) -> String) -> String {
        var path = path
        return path.withUTF8(body)
    }
}
