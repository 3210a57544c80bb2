import Foundation

/// The requests a 500px-style photo API answers.
///
/// A plain enum on purpose: the transfer layer's `Router` conformance is added where the
/// two meet, so this file needs nothing but Foundation.
public enum PhotoEndpoint: Sendable, Hashable {
    /// Popular photos, one page of `perPage`: `/photos?feature=popular&page=N&rpp=50[&consumer_key=K]`.
    case popular(page: Int, perPage: Int = 50, consumerKey: String? = nil)
    /// One photo at one image size: `/photos/ID?image_size=S`.
    case photo(id: Int, imageSize: Int)
    /// One page of a photo's comments: `/photos/ID/comments?page=N`.
    case comments(photoID: Int, page: Int)

    /// Every endpoint is a read.
    public var method: String { "GET" }

    /// The path below the API base, starting with `/`.
    public var path: String {
        switch self {
        case .popular: "/photos"
        case let .photo(id, _): "/photos/\(id)"
        case let .comments(photoID, _): "/photos/\(photoID)/comments"
        }
    }

    /// Query items in a fixed order, so the same endpoint always gives the same URL
    /// (and the same cache key).
    public var queryItems: [URLQueryItem] {
        switch self {
        case let .popular(page, perPage, consumerKey):
            var items = [
                URLQueryItem(name: "feature", value: "popular"),
                URLQueryItem(name: "page", value: String(page)),
                URLQueryItem(name: "rpp", value: String(perPage)),
            ]
            if let consumerKey { items.append(URLQueryItem(name: "consumer_key", value: consumerKey)) }
            return items
        case let .photo(_, imageSize):
            return [URLQueryItem(name: "image_size", value: String(imageSize))]
        case let .comments(_, page):
            return [URLQueryItem(name: "page", value: String(page))]
        }
    }

    /// The full URL below `base`, which may carry a path prefix such as `/v1`.
    ///
    /// Query values are percent-encoded strictly (`+`, `&`, `=` included), because a
    /// consumer key is user input and `URLComponents` leaves `+` alone.
    public func url(relativeTo base: URL) -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else {
            preconditionFailure("base URL \(base) cannot be split into components")
        }
        let prefix = components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast())
            : components.percentEncodedPath
        components.percentEncodedPath = prefix + path
        components.percentEncodedQuery = queryItems
            .map { "\(Self.encode($0.name))=\(Self.encode($0.value ?? ""))" }
            .joined(separator: "&")
        guard let url = components.url else {
            preconditionFailure("endpoint \(self) does not form a URL below \(base)")
        }
        return url
    }

    private static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
