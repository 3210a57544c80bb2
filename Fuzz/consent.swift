// libFuzzer target: the opt-out files and headers a site serves (robots.txt with its Content-Signal and
// Content-Usage lines, tdmrep.json, X-Robots-Tag and Content-Usage header values).
//
// The input is read three ways: as a robots.txt, as a tdmrep.json, and line by line as header values.
// Invariants: parsing never traps and is deterministic; /robots.txt is always allowed; the rule that
// decides a path matches it, and no matching rule is longer (Allow wins a tie); a robots.txt that
// disallows a path for us never allows it under a policy that ignores nothing; a tdmrep.json is rules
// or a TDMRepError, every rule's location absolute or a wildcard, the first matching rule decides; header
// directives are lower-cased, trimmed and non-empty; preferences keep only y/n values.
@testable import GalleryTransfer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConsent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Paths to ask about: a few fixed ones and the input's own lines that look like paths.
    let paths = ["/", "/robots.txt", "/a.jpg", "/img/x.png?y=1"] + lines.prefix(8).map { "/" + $0.prefix(40) }
    let tokens = ["fetch-gallery", "*"]

    let robots = RobotsTxt(parsing: bytes)
    let again = RobotsTxt(parsing: bytes)
    for path in paths {
        let allowed = robots.allows(path, for: tokens)
        require(allowed == again.allows(path, for: tokens), "robots.txt not deterministic for \(path.debugDescription)")
        if path == "/robots.txt" { require(allowed, "/robots.txt disallowed") }
        if let rule = robots.decidingRule(path, for: tokens) {
            require(rule.pattern.matches(path), "deciding rule \(rule.pattern.text.debugDescription) does not match \(path.debugDescription)")
            for group in robots.groups(for: tokens) {
                for other in group.rules where other.pattern.matches(path) {
                    require(other.pattern.specificity < rule.pattern.specificity
                            || (other.pattern.specificity == rule.pattern.specificity && (rule.allow || !other.allow)),
                            "rule \(other.pattern.text.debugDescription) beats the deciding \(rule.pattern.text.debugDescription)")
                }
            }
        }
        let signal = OptOutPolicy(tokens: tokens).beforeRequest(path: path, origin: OriginConsent(robots: robots))
        if !allowed { require(signal?.kind == .robotsTxt, "disallowed \(path.debugDescription) not opted out") }
        for line in robots.preferences(for: path, tokens: tokens) {
            require(!line.preferences.isEmpty, "an empty preference line kept")
        }
    }

    do {
        let tdm = try TDMRep(parsing: bytes)
        for rule in tdm.rules { require(rule.location.text.hasPrefix("/") || rule.location.text.hasPrefix("*"), "location \(rule.location.text.debugDescription)") }
        for path in paths {
            let first = tdm.rules.first { $0.location.matches(path) }
            require(tdm.rule(for: path) == first, "tdmrep: not the first matching rule for \(path.debugDescription)")
        }
    } catch {
        require(!error.reason.isEmpty, "tdmrep error without a reason")
    }

    let directives = XRobotsTag.directives(lines, token: "fetch-gallery")
    for d in directives { require(!d.isEmpty && d == d.lowercased() && d.trimmingSpaces() == d, "directive \(d.debugDescription)") }
    for line in lines.prefix(16) {
        let prefs = UsagePreferences(parsing: line)
        for (key, _) in prefs.entries { require(!key.isEmpty && key == key.lowercased(), "preference key \(key.debugDescription)") }
        _ = prefs.refusal(of: .aiTraining)
    }
    return 0
}
