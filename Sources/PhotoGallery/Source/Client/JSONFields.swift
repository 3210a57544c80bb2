import Foundation

/// Lenient readers for `JSONSerialization` values: services send numbers as strings (Flickr's
/// `"total":"30"`), strings as numbers (MediaWiki's `extmetadata`), and `null` for what they lack
/// (Openverse's `width`). Each reader gives nil rather than inventing a value.
enum JSONFields {
    /// A string, or a number written as text; nil for anything else.
    static func string(_ value: Any?) -> String? {
        if let text = value as? String { return text }
        if let number = value as? NSNumber { return number.stringValue }
        return nil
    }

    /// A whole number, or its text ("4932"); nil for anything else. Either way at most 9e15 in size, so
    /// arithmetic on a count or a page number a server sent (`"total":"9223372036854775807"`) cannot overflow.
    static func int(_ value: Any?) -> Int? {
        if let text = value as? String {
            return Int(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.magnitude < maxMagnitude ? $0 : nil }
        }
        if let number = value as? NSNumber {
            let double = number.doubleValue
            return double.isFinite && double.rounded() == double && abs(double) < Double(maxMagnitude) ? Int(double) : nil
        }
        return nil
    }

    /// The largest magnitude ``int(_:)`` reads (exactly representable as a Double, far from overflowing).
    static let maxMagnitude: UInt = 9_000_000_000_000_000

    /// A boolean, `0`/`1`, or `"true"`/`"false"`.
    static func bool(_ value: Any?) -> Bool? {
        if let text = value as? String {
            return ["true", "1", "yes"].contains(text.lowercased()) ? true
                : ["false", "0", "no"].contains(text.lowercased()) ? false : nil
        }
        if let number = value as? NSNumber { return number.intValue != 0 }
        return nil
    }

    /// A JSON object.
    static func object(_ value: Any?) -> [String: Any]? { value as? [String: Any] }

    /// A JSON array.
    static func array(_ value: Any?) -> [Any]? { value as? [Any] }

    /// A non-empty string after trimming.
    static func text(_ value: Any?) -> String? {
        guard let text = string(value)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }

    /// The top-level object of `response`'s body, or a `SourceError` naming `url`.
    static func object(of body: [UInt8], url: String) throws(SourceError) -> [String: Any] {
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) } catch {
            throw .notJSON(page: URL(string: url) ?? URL(string: "about:blank")!, reason: String(describing: error))
        }
        guard let object = parsed as? [String: Any] else {
            throw .notJSON(page: URL(string: url) ?? URL(string: "about:blank")!, reason: "top level is not a JSON object")
        }
        return object
    }
}

/// Query strings with strict percent-encoding (`+`, `&`, `=`, `|` all encoded), keys in the given order.
enum SourceQuery {
    /// `base` + `path` + `?` + the items; `base` may carry a path prefix (`--api http://host/prefix`).
    static func url(_ base: URL, path: String, _ items: [(String, String)]) -> String {
        var text = base.absoluteString
        // A path to add starts with "/": drop the base's own trailing ones. With none, the base is the endpoint as given.
        while !path.isEmpty, text.hasSuffix("/") { text.removeLast() }
        let query = items.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
        return text + path + (query.isEmpty ? "" : "?" + query)
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: Redactor.unreserved) ?? ""
    }
}
