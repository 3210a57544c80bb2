import Testing
@testable import GalleryTransfer

/// The signals a response's headers carry (X-Robots-Tag, Content-Usage, tdm-reservation) and
/// TDMRep's tdmrep.json, each alone, in conflict and malformed.
@Suite("Consent: header signals and TDMRep")
struct ConsentHeaderSignalTests {
    let policy = OptOutPolicy(tokens: ["mytoken", "fetch-gallery"])

    func check(_ headers: HTTPHeaders, path: String = "/img/a.jpg", origin: OriginConsent = OriginConsent()) -> String? {
        policy.atHeaders(path: path, headers: headers, origin: origin)?.detail
    }

    @Test func xRobotsTagDirectivesAndTokens() {
        #expect(check(["X-Robots-Tag": "noai"]) == "X-Robots-Tag noai")
        #expect(check(["x-robots-tag": "NoImageAI, nofollow"]) == "X-Robots-Tag noimageai")
        #expect(check(["X-Robots-Tag": "noml"]) == "X-Robots-Tag noml")
        #expect(check(["X-Robots-Tag": "nofollow, noarchive"]) == nil)
        #expect(check(["X-Robots-Tag": "googlebot: noindex"]) == nil, "another crawler's line")
        #expect(check(["X-Robots-Tag": "MyToken: noai"]) == "X-Robots-Tag noai", "a line naming our token")
        #expect(check(["X-Robots-Tag": "unavailable_after: 25 Jun 2010 15:00:00 PST"]) == nil)
        var repeated = HTTPHeaders()
        repeated.add("X-Robots-Tag", "all")
        repeated.add("X-Robots-Tag", "noimageindex")
        #expect(check(repeated) == "X-Robots-Tag noimageindex", "every header line counts")
        #expect(OptOutPolicy(tokens: [], ignored: [.xRobotsTag]).atHeaders(path: "/", headers: ["X-Robots-Tag": "noai"], origin: OriginConsent()) == nil)
    }

    @Test func contentUsageHeader() {
        #expect(check(["Content-Usage": "train-ai=n"]) == "Content-Usage train-ai=n")
        #expect(check(["Content-Usage": "bulk=n"]) == "Content-Usage bulk=n", "the broader category covers training")
        #expect(check(["Content-Usage": "bulk=n, train-ai=y"]) == nil, "the more specific category decides")
        #expect(check(["Content-Usage": "search=n, future-thing=n"]) == nil, "keys of other uses")
        #expect(check(["Content-Usage": "train-ai=maybe, =n, ,,;"]) == nil, "malformed members are ignored")
        #expect(check(["Content-Usage": "train-genai=n;p=1"]) == "Content-Usage train-genai=n")
    }

    @Test func tdmReservationHeaderOverridesTheFile() throws {
        let file = try TDMRep(parsing: Array(#"[{"location": "/img/*", "tdm-reservation": 1, "tdm-policy": "https://x/p.json"}, {"location": "/", "tdm-reservation": 0}]"#.utf8))
        let origin = OriginConsent(tdmrep: file)
        #expect(check([:], origin: origin) == "tdmrep.json tdm-reservation 1 for /img/*")
        #expect(check([:], path: "/other.jpg", origin: origin) == nil, "first match wins: the catch-all 0")
        #expect(check(["tdm-reservation": "0"], origin: origin) == nil, "a header supersedes the file")
        #expect(check(["tdm-reservation": "1"]) == "tdm-reservation: 1 (header)")
        #expect(check(["tdm-reservation": "yes"], origin: origin) == "tdmrep.json tdm-reservation 1 for /img/*", "other values are unset")
        var conflict = HTTPHeaders()
        conflict.add("tdm-reservation", "0")
        conflict.add("tdm-reservation", "1")
        #expect(check(conflict) == "tdm-reservation: 1 (header)", "repeated with different values: reserved")
    }

    @Test func tdmrepFilesThatAreWrong() {
        #expect(throws: TDMRepError(reason: "not JSON (9 bytes)")) { try TDMRep(parsing: Array("<html/>\n!".utf8)) }
        #expect(throws: TDMRepError(reason: "not a JSON array of rules")) { try TDMRep(parsing: Array(#"{"location": "/"}"#.utf8)) }
        let lenient = try? TDMRep(parsing: Array(#"[1, "x", {"location": "/a", "tdm-reservation": true}, {"location": "b", "tdm-reservation": 1}, {"location": "/c$", "tdm-reservation": "1"}]"#.utf8))
        #expect(lenient?.rules.map(\.location.text) == ["/c$"], "booleans, relative locations and non-objects are skipped")
    }

    @Test func pathPatterns() {
        #expect(PathPattern("/img/*.jpg$").matches("/img/a/b.jpg"))
        #expect(!PathPattern("/img/*.jpg$").matches("/img/a/b.jpg.html"))
        #expect(PathPattern("*").matches("/anything"))
        #expect(PathPattern("/a*b*c").matches("/a--b--c--"))
        #expect(!PathPattern("/a*b*c$").matches("/a--c--b"))
        #expect(PathPattern("/a*c$").matches("/ac"))
        #expect(!PathPattern("/IMG").matches("/img"), "case-sensitive")
    }
}
