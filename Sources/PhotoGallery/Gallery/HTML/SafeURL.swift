import Foundation

/// The only URLs the pages may link to: our own relative paths, and http(s) links out.
public enum SafeURL {
    /// `text` when it is an absolute http or https URL with a host, else nil, so
    /// `javascript:`, `data:` and friends are dropped rather than escaped.
    public static func web(_ text: String?) -> String? {
        guard let text else { return nil }
        // A plain URL is what Foundation's parser gives back, as it is (``PlainWebURL``).
        if PlainWebURL.isPlain(text) { return text }
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty, let url = components.url
        else { return nil }
        return url.absoluteString
    }

    /// A path inside the gallery folder made by `GalleryNaming`, as a relative link from a
    /// page `depth` folders below the root (`photos/x.html` has depth 1).
    ///
    /// Each segment is percent-encoded, so even a name not made by `GalleryNaming` cannot
    /// turn into a scheme, a query or a step up.
    public static func relative(_ path: String, depth: Int = 0) -> String {
        var path = path
        return path.withUTF8 { bytes in
            // Written as bytes into one string: a page asks for a dozen of these.
            let ups = 3 * max(depth, 0)
            return String(unsafeUninitializedCapacity: ups + 3 * bytes.count) { out in
                var n = 0
                for _ in 0..<max(depth, 0) {
                    (out[n], out[n + 1], out[n + 2]) = (UInt8(ascii: "."), UInt8(ascii: "."), UInt8(ascii: "/"))
                    n += 3
                }
                var first = true, start = 0
                while start <= bytes.count {  // each segment, empty ones too, as split(separator:) skips them
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
                    let segment = UnsafeBufferPointer(rebasing: bytes[start..<end])
                    start = end + 1
                    if segment.isEmpty || isDots(segment) { continue }
                    if !first { out[n] = UInt8(ascii: "/"); n += 1 }
                    first = false
                    n = appendPercentEncoded(segment, to: out, at: n)
                }
                return n
            }
        }
    }

    /// Whether `segment` is "." or "..".
    private static func isDots(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        segment.count <= 2 && segment.allSatisfy { $0 == UInt8(ascii: ".") }
    }

    /// A path segment with every byte of its UTF-8 outside the unreserved set (letters, digits,
    /// `-._~`) written `%XX`, as `addingPercentEncoding` does with that set (without Foundation's
    /// CharacterSet and bridging, a third of a photo page's rendering).
    private static func appendPercentEncoded(_ segment: UnsafeBufferPointer<UInt8>, to out: UnsafeMutableBufferPointer<UInt8>,
                                             at start: Int) -> Int {
        var n = start
        for byte in segment {
            if isUnreserved(byte) {
                out[n] = byte
                n += 1
            } else {
                (out[n], out[n + 1], out[n + 2]) = (UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)])
                n += 3
            }
        }
        return n
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
