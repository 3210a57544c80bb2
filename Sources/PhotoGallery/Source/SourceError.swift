import Foundation

/// Why a photo source could not be read.
///
/// Every case names the page (or list) it came from, so a failure deep in a run can be
/// traced back to the request that produced it.
public enum SourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body of `page` is not valid JSON (or not a JSON object at the top level).
    case notJSON(page: URL, reason: String)
    /// The body of `page` is JSON but lacks the list it must carry (`photos`, `comments`).
    case missingList(page: URL, key: String)
    /// The list is present but is not an array, or the page has some other fatal shape problem.
    case malformedPage(page: URL, reason: String)
    /// A listed photo offers no http(s) image URL (only `file:`, `javascript:`, relative or broken ones).
    case noImageURL(photoID: Int, offered: [String])
    /// A request to the service failed: the transfer layer's reason, keys already redacted.
    case request(service: String, reason: String)
    /// The service answered with an error of its own (a refused key, Flickr's `stat=fail` at status 200,
    /// MediaWiki's `error` object): its status and message, keys already redacted.
    case service(service: String, url: String, status: Int, message: String)
    /// The service's request budget is spent and the wait is longer than the run waits for: the source
    /// stops here, everything done so far is kept, and a re-run carries on.
    case rateLimited(service: String, message: String)
    /// The source was asked for something it cannot do (a missing key, a bad option).
    case unusable(service: String, reason: String)
    /// A keyed service was asked for without its key (``PhotoServices/make(_:_:)``).
    case needsKey(service: String, variable: String)

    /// One line: where, then what went wrong.
    public var description: String {
        switch self {
        case let .notJSON(page, reason):
            "page \(page.absoluteString) is not JSON: \(reason)"
        case let .missingList(page, key):
            "page \(page.absoluteString) has no \"\(key)\" array"
        case let .malformedPage(page, reason):
            "page \(page.absoluteString) is malformed: \(reason)"
        case let .noImageURL(id, offered):
            "photo \(id) has no http(s) image URL"
                + (offered.isEmpty ? "" : " (offered: " + offered.prefix(3).map { String($0.prefix(200)) }.joined(separator: ", ") + ")")
        case let .request(service, reason):
            "\(service): \(reason)"
        case let .service(service, url, status, message):
            "\(service) answered \(url) with an error (HTTP \(status)): \(message)"
        case let .rateLimited(service, message):
            "\(service): rate limit reached: \(message)"
        case let .unusable(service, reason):
            "\(service): \(reason)"
        case let .needsKey(service, variable):
            "\(service) needs an API key: set \(variable)"
        }
    }
}
