/// Usage preferences written as a list of `key=value` pairs: the IETF AI-preferences draft's
/// `Content-Usage` (a Structured Fields dictionary: `train-ai=n, search=y`) and Cloudflare's
/// `Content-Signal` (`ai-train=no, search=yes`), as a header or as a robots.txt line.
///
/// The parser knows the syntax, not the vocabulary: every key is kept (lower-cased) with `y`/`yes` as
/// granted and `n`/`no` as refused; other values, parameters (`;…`) and malformed members are ignored,
/// as a Structured Fields parser ignores what it does not understand. What a key means is asked by
/// ``UsagePurpose``.
public struct UsagePreferences: Sendable, Hashable {
    /// Each key's stated preference: true = allowed, false = refused. A key named twice keeps its last value.
    public private(set) var entries: [String: Bool] = [:]
    /// The members in the order written (for messages): `train-ai=n`.
    public private(set) var written: [String: String] = [:]

    public init(parsing text: String) {
        for member in text.split(separator: ",") {
            let item = member.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            let parts = item.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
            guard parts.count == 2, !parts[0].isEmpty else { continue }
            let key = parts[0].lowercased()
            var value = parts[1].lowercased()
            if value.hasPrefix("?") { value = value == "?1" ? "y" : value == "?0" ? "n" : value }
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            switch value {
            case "y", "yes": entries[key] = true
            case "n", "no": entries[key] = false
            default: continue
            }
            written[key] = "\(key)=\(parts[1])"
        }
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The preference for `purpose`: its own key when stated, else the nearest broader category's
    /// (the draft's categories nest: a refusal of automated processing covers AI training). Nil: not stated.
    public func refusal(of purpose: UsagePurpose) -> String? {
        for key in purpose.keys {
            if let granted = entries[key] { return granted ? nil : written[key] }
        }
        return nil
    }
}

/// The use a job makes of what it downloads, as the keys that speak of it, most specific first.
public struct UsagePurpose: Sendable, Hashable {
    public var keys: [String]
    public init(keys: [String]) { self.keys = keys }

    /// Building a dataset to train AI models: the AI-preferences draft's `train-genai` within `train-ai`
    /// within `bulk` (automated processing), and Content-Signal's `ai-train`.
    public static let aiTraining = UsagePurpose(keys: ["train-genai", "train-ai", "ai-train", "bulk"])
}

/// The `X-Robots-Tag` header's directives that apply to a crawler (Google's syntax, as img2dataset reads
/// it): each header value is a comma-separated list, optionally after `TOKEN:`, which limits it to the
/// crawler of that product token. Directives with values of their own (`unavailable_after: DATE`,
/// `max-image-preview: large`) are not mistaken for a token.
public enum XRobotsTag {
    /// The lower-cased directives of `values` (every X-Robots-Tag header line) that apply to `token`.
    public static func directives(_ values: [String], token: String?) -> [String] {
        var found: [String] = []
        for value in values {
            var text = Substring(value)
            if let colon = text.firstIndex(of: ":") {
                let head = text[..<colon].trimmingCharacters()
                let known = ["unavailable_after", "max-image-preview", "max-snippet", "max-video-preview"]
                if !head.isEmpty, !head.contains(","), !head.contains(" "), !known.contains(head.lowercased()) {
                    guard let token, head.lowercased() == token.lowercased() else { continue }
                    text = text[text.index(after: colon)...]
                }
            }
            for directive in text.split(separator: ",") {
                let d = directive.trimmingCharacters().lowercased()
                if !d.isEmpty { found.append(d) }
            }
        }
        return found
    }
}

extension Substring {
    func trimmingCharacters() -> String { String(self).trimmingSpaces() }
}
