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
        let segments = path.split(separator: "/").filter { $0 != "." && $0 != ".." }.map {
            String($0).addingPercentEncoding(withAllowedCharacters: pathSegment) ?? "_"
        }
        return String(repeating: "../", count: max(depth, 0)) + segments.joined(separator: "/")
    }

    private static let pathSegment = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
