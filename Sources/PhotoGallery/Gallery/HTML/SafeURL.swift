import Foundation

/// The only URLs the pages may link to: our own relative paths, and http(s) links out.
public enum SafeURL {
    /// `text` when it is an absolute http or https URL with a host, else nil, so
    /// `javascript:`, `data:` and friends are dropped rather than escaped.
    public static func web(_ text: String?) -> String? {
        guard let text, let components = URLComponents(string: text),
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
        // Built as bytes, one string at the end: a page asks for a dozen of these.
        var link: [UInt8] = []
        link.reserveCapacity(3 * max(depth, 0) + path.utf8.count + 8)
        for _ in 0..<max(depth, 0) { link.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "."), UInt8(ascii: "/")]) }
        var first = true
        for segment in path.utf8.split(separator: UInt8(ascii: "/")) {
            if segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8) { continue }
            if !first { link.append(UInt8(ascii: "/")) }
            first = false
            appendPercentEncoded(segment, to: &link)
        }
        return String(decoding: link, as: UTF8.self)
    }

    /// A path segment with every byte of its UTF-8 outside the unreserved set (letters, digits,
    /// `-._~`) written `%XX`, as `addingPercentEncoding` does with that set (without Foundation's
    /// CharacterSet and bridging, a third of a photo page's rendering).
    private static func appendPercentEncoded(_ segment: Substring.UTF8View, to bytes: inout [UInt8]) {
        for byte in segment {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 15)])
            }
        }
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
