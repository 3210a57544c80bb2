import Foundation

/// Request parameters and how they travel.
public enum RequestParameters: Sendable {
    /// No parameters.
    case none
    /// Appended to the URL as a percent-encoded query, keys sorted so the URL is stable (cache-friendly).
    case query([String: String])
    /// Sent as a JSON body with `Content-Type: application/json`.
    case json(any Encodable & Sendable)

    func encode(into request: inout HTTPRequest) throws(TransferError) {
        switch self {
        case .none:
            return
        case .query(let items):
            guard !items.isEmpty else { return }
            let query = items.sorted { $0.key < $1.key }
                .map { "\(Self.escape($0.key))=\(Self.escape($0.value))" }
                .joined(separator: "&")
            let (base, fragment) = Self.split(request.url)
            request.url = base + (base.contains("?") ? "&" : "?") + query + fragment
        case .json(let value):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            do {
                request.body = Array(try encoder.encode(value))
            } catch {
                throw TransferError(url: request.url, reason: .decodingFailed("JSON encoding: \(error)"))
            }
            if request.headers["Content-Type"] == nil { request.headers.set("Content-Type", "application/json") }
        }
    }

    /// RFC 3986 unreserved characters stay; everything else (including '&', '=', '+', ' ') is escaped.
    static func escape(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        // alphanumerics includes non-ASCII letters, which must be escaped too.
        return s.unicodeScalars.map { u in
            u.isASCII && allowed.contains(u) ? String(u) : String(u).utf8.map { String(format: "%%%02X", $0) }.joined()
        }.joined()
    }

    private static func split(_ url: String) -> (String, String) {
        guard let hash = url.firstIndex(of: "#") else { return (url, "") }
        return (String(url[..<hash]), String(url[hash...]))
    }
}
