/// The signals by which a site says its images may not be used to train AI models, and the policy that
/// honours them: what an origin's files say before a request is made, and what a response's headers say
/// before its body is read.
public enum OptOutSignalKind: String, Sendable, CaseIterable, Hashable {
    case xRobotsTag = "x-robots-tag"
    case robotsTxt = "robots.txt"
    case contentSignal = "content-signal"
    case contentUsage = "content-usage"
    case tdmRep = "tdmrep"
}

/// Why an image is opted out: the signal and where it was found, for the row's message
/// (`X-Robots-Tag noai`, `robots.txt Disallow: /private/`, `tdmrep.json tdm-reservation 1 for /img/*`).
public struct OptOutSignal: Sendable, Hashable, CustomStringConvertible {
    public var kind: OptOutSignalKind
    public var detail: String
    public var description: String { detail }
}

/// What an origin publishes for every resource on it, fetched once per run and origin.
public struct OriginConsent: Sendable {
    public var robots: RobotsTxt
    public var tdmrep: TDMRep
    /// Why the origin's files could not be asked for at all (its name did not resolve, or its address is
    /// refused): nothing is concluded from that, and the image's own request fails for the same reason.
    public var notAsked: String?
    public init(robots: RobotsTxt = .allowAll, tdmrep: TDMRep = .none) {
        self.robots = robots
        self.tdmrep = tdmrep
    }
}

public struct OptOutPolicy: Sendable {
    /// The product tokens the job answers to in robots.txt and X-Robots-Tag, most specific first
    /// (`--user-agent-token`, then `fetch-gallery`); `*` groups apply when none is named.
    public var tokens: [String]
    /// The X-Robots-Tag directives that opt an image out (img2dataset's default list plus `noml`).
    public var directives: Set<String>
    public var purpose: UsagePurpose
    /// The signals a user with the right to do so turned off (`--ignore-opt-out`).
    public var ignored: Set<OptOutSignalKind>

    public static let defaultDirectives: Set<String> = ["noai", "noimageai", "noindex", "noimageindex", "noml"]

    public init(tokens: [String], directives: Set<String> = OptOutPolicy.defaultDirectives,
                purpose: UsagePurpose = .aiTraining, ignored: Set<OptOutSignalKind> = []) {
        self.tokens = tokens
        self.directives = Set(directives.map { $0.lowercased() })
        self.purpose = purpose
        self.ignored = ignored
    }

    /// Before the request: the origin's robots.txt (a disallowed path, or a group's Content-Signal or
    /// Content-Usage refusing the purpose). `path` is the URL's path and query.
    public func beforeRequest(path: String, origin: OriginConsent) -> OptOutSignal? {
        if !ignored.contains(.robotsTxt), let rule = origin.robots.decidingRule(path, for: tokens), !rule.allow {
            let why = origin.robots.disallowsAll ? "unreachable (5xx or no answer): all disallowed" : "Disallow: \(rule.pattern.text)"
            return OptOutSignal(kind: .robotsTxt, detail: "robots.txt \(why)")
        }
        // The most specific applicable line speaks last; a refusal anywhere in it stands unless a more
        // specific line grants the purpose again.
        var refusal: OptOutSignal? = nil
        for line in origin.robots.preferences(for: path, tokens: tokens) {
            let kind: OptOutSignalKind = line.field == "Content-Signal" ? .contentSignal : .contentUsage
            guard !ignored.contains(kind) else { continue }
            if let refused = line.preferences.refusal(of: purpose) {
                refusal = OptOutSignal(kind: kind, detail: "robots.txt \(line.field) \(refused)")
            } else if purpose.keys.contains(where: { line.preferences.entries[$0] == true }) {
                refusal = nil
            }
        }
        return refusal
    }

    /// Once the response's headers are in, before its body: X-Robots-Tag, Content-Usage, and TDMRep (the
    /// `tdm-reservation` header, else the origin's tdmrep.json rule for the path).
    public func atHeaders(path: String, headers: HTTPHeaders, origin: OriginConsent) -> OptOutSignal? {
        if !ignored.contains(.xRobotsTag) {
            let values = headers.fields.filter { $0.name.equalsIgnoringASCIICase("X-Robots-Tag") }.map(\.value)
            let found = XRobotsTag.directives(values, token: tokens.first)
            if let hit = found.first(where: { directives.contains($0) }) {
                return OptOutSignal(kind: .xRobotsTag, detail: "X-Robots-Tag \(hit)")
            }
        }
        if !ignored.contains(.contentUsage) {
            for field in headers.fields where field.name.equalsIgnoringASCIICase("Content-Usage") {
                if let refused = UsagePreferences(parsing: field.value).refusal(of: purpose) {
                    return OptOutSignal(kind: .contentUsage, detail: "Content-Usage \(refused)")
                }
            }
        }
        if !ignored.contains(.tdmRep) {
            // Repeated with different values: a reservation anywhere stands (the cautious reading).
            let stated = headers.fields.filter { $0.name.equalsIgnoringASCIICase("tdm-reservation") }
                .compactMap { TDMRep.headerReservation($0.value) }
            if stated.contains(true) { return OptOutSignal(kind: .tdmRep, detail: "tdm-reservation: 1 (header)") }
            if stated.isEmpty, let rule = origin.tdmrep.rule(for: path), rule.reserved {
                return OptOutSignal(kind: .tdmRep, detail: "tdmrep.json tdm-reservation 1 for \(rule.location.text)")
            }
        }
        return nil
    }
}
