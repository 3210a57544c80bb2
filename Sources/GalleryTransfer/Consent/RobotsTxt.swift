/// A robots.txt file as RFC 9309 reads it, with the two AI-preference lines that may sit in its groups:
/// `Content-Signal` (contentsignals.org: `ai-train=no, search=yes`) and the IETF AI-preferences draft's
/// `Content-Usage` rule (`Content-Usage: [PATH] train-ai=n`).
///
/// Parsing never fails: lines it cannot read are skipped (§2.2), and only the first
/// ``RobotsTxt/parsedLimit`` bytes are read (§2.5 asks for at least 500 KiB). A group is one or more
/// `user-agent` lines and the rules after them; groups naming the same agent are merged (§2.2.1).
public struct RobotsTxt: Sendable {
    /// How much of a file is parsed (RFC 9309 §2.5: at least 500 kibibytes).
    public static let parsedLimit = 500 * 1024

    public struct Rule: Sendable, Hashable {
        public var allow: Bool
        public var pattern: PathPattern
    }

    /// A usage-preference line of a group, optionally limited to a path (`Content-Usage: /images/ train-ai=n`).
    public struct Preference: Sendable, Hashable {
        /// `Content-Signal` or `Content-Usage`, as written in the file's key (for messages).
        public var field: String
        public var pattern: PathPattern?
        public var preferences: UsagePreferences
    }

    struct Group: Sendable {
        var agents: [String] = []   // lower-cased product tokens, "*" for any
        var rules: [Rule] = []
        var preferences: [Preference] = []
    }

    var groups: [Group]
    /// Whether every path is disallowed whatever the file says (a 5xx or unreachable robots.txt, §2.3.1.3).
    public private(set) var disallowsAll = false

    /// The file that allows everything (a 4xx robots.txt, §2.3.1.3).
    public static let allowAll = RobotsTxt(groups: [])
    /// The file that disallows everything (a 5xx or unreachable robots.txt, §2.3.1.4).
    public static let disallowAll: RobotsTxt = { var r = RobotsTxt(groups: []); r.disallowsAll = true; return r }()

    init(groups: [Group]) { self.groups = groups }

    public init<Bytes: Collection<UInt8>>(parsing bytes: Bytes) {
        var groups: [Group] = []
        var current: Group? = nil
        var lastWasAgent = false
        for raw in bytes.prefix(RobotsTxt.parsedLimit).split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            guard let (key, value) = RobotsTxt.keyValue(raw) else { continue }
            switch key {
            case "user-agent":
                if !lastWasAgent, let done = current { groups.append(done); current = nil }
                if current == nil { current = Group() }
                current!.agents.append(RobotsTxt.productToken(value))
                lastWasAgent = true
            case "allow", "disallow":
                lastWasAgent = false
                // A rule before any user-agent line belongs to no group (§2.1); an empty path is no rule.
                guard current != nil, !value.isEmpty else { continue }
                current!.rules.append(Rule(allow: key == "allow", pattern: PathPattern(value)))
            case "content-signal", "content-usage":
                lastWasAgent = false
                guard current != nil else { continue }
                var text = Substring(value), pattern: PathPattern? = nil
                if text.hasPrefix("/") {
                    let end = text.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? text.endIndex
                    pattern = PathPattern(String(text[..<end]))
                    text = text[end...]
                }
                let parsed = UsagePreferences(parsing: String(text))
                guard !parsed.isEmpty else { continue }
                let field = key == "content-signal" ? "Content-Signal" : "Content-Usage"
                current!.preferences.append(Preference(field: field, pattern: pattern, preferences: parsed))
            default:
                // sitemap, crawl-delay, unknown keys: not part of a group's rules (§2.2.4), not ending it.
                continue
            }
        }
        if let done = current { groups.append(done) }
        self.groups = groups
    }

    /// The groups that apply to a crawler calling itself by `tokens` (most preferred first): those naming
    /// the first token that has any, merged; else those for `*`; else none.
    func groups(for tokens: [String]) -> [Group] {
        for token in tokens.map({ $0.lowercased() }) where token != "*" {
            let named = groups.filter { $0.agents.contains(token) }
            if !named.isEmpty { return named }
        }
        return groups.filter { $0.agents.contains("*") }
    }

    /// Whether `path` may be fetched by a crawler calling itself by `tokens`: the longest matching rule
    /// decides, `Allow` winning a tie; no matching rule allows. `/robots.txt` itself is always allowed.
    public func allows(_ path: String, for tokens: [String]) -> Bool {
        decidingRule(path, for: tokens)?.allow ?? true
    }

    /// The rule that decides `path` (nil when none matches; then the path is allowed unless the whole
    /// file stands for a failed fetch).
    public func decidingRule(_ path: String, for tokens: [String]) -> Rule? {
        if path == "/robots.txt" { return nil }
        if disallowsAll { return Rule(allow: false, pattern: PathPattern("/")) }
        var best: Rule? = nil
        for group in groups(for: tokens) {
            for rule in group.rules where rule.pattern.matches(path) {
                guard let current = best else { best = rule; continue }
                let (a, b) = (rule.pattern.specificity, current.pattern.specificity)
                if a > b || (a == b && rule.allow && !current.allow) { best = rule }
            }
        }
        return best
    }

    /// The usage preferences that apply to `path` for a crawler calling itself by `tokens`, in file order
    /// (a line limited to a path applies when its pattern matches; the most specific such line last).
    public func preferences(for path: String, tokens: [String]) -> [Preference] {
        let applying = groups(for: tokens).flatMap { $0.preferences }.filter { $0.pattern?.matches(path) ?? true }
        return applying.sorted { ($0.pattern?.specificity ?? 0) < ($1.pattern?.specificity ?? 0) }
    }

    /// A line's key (lower-cased, trimmed) and value (trimmed, comment removed); nil for blank, comment
    /// and key-less lines.
    static func keyValue<Line: Collection<UInt8>>(_ line: Line) -> (String, String)? {
        var bytes = Array(line)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.removeSubrange(hash...) }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let key = String(decoding: bytes[..<colon], as: UTF8.self).trimmingSpaces().lowercased()
        let value = String(decoding: bytes[(colon + 1)...], as: UTF8.self).trimmingSpaces()
        guard !key.isEmpty, key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return (key, value)
    }

    /// The product token of a user-agent line's value (`fetch-gallery/1.0` → `fetch-gallery`), lower-cased.
    static func productToken(_ value: String) -> String {
        let token = value.prefix { $0 != "/" && $0 != " " && $0 != "\t" }
        return token.isEmpty ? value.lowercased() : token.lowercased()
    }
}

extension String {
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(scalars[start...end])
    }
}
