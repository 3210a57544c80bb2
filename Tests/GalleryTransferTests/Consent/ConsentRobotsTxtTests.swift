import Testing
@testable import GalleryTransfer

/// robots.txt as RFC 9309 reads it: groups, the longest match, Allow winning ties, wildcards,
/// percent-encoding, the 4xx/5xx files, and the AI-preference lines inside groups.
@Suite("Consent: robots.txt (RFC 9309)")
struct ConsentRobotsTxtTests {
    let us = ["fetch-gallery"]

    func robots(_ text: String) -> RobotsTxt { RobotsTxt(parsing: Array(text.utf8)) }

    @Test func theLongestMatchDecidesAndAllowWinsATie() {
        let r = robots("""
            User-agent: *
            Disallow: /photos/
            Allow: /photos/public/
            Disallow: /photos/public/raw
            Allow: /same
            Disallow: /same
            Disallow: /tie
            Allow: /tie
            """)
        #expect(!r.allows("/photos/x.jpg", for: us))
        #expect(r.allows("/photos/public/x.jpg", for: us))
        #expect(!r.allows("/photos/public/raw/x.jpg", for: us))
        #expect(r.allows("/same/x", for: us))
        #expect(r.allows("/tie/x", for: us), "Allow wins a tie in either order")
        #expect(r.allows("/elsewhere", for: us))
    }

    @Test func ourGroupReplacesTheStarGroupAndGroupsOfOneAgentMerge() {
        let r = robots("""
            User-agent: *
            Disallow: /

            User-agent: Fetch-Gallery/2.0
            User-agent: otherbot
            Disallow: /private/

            User-agent: fetch-gallery
            Disallow: /secret
            """)
        #expect(r.allows("/photos/a.jpg", for: us), "our group, not *, applies")
        #expect(!r.allows("/private/a.jpg", for: us))
        #expect(!r.allows("/secret.jpg", for: us), "the two groups naming us merge")
        #expect(!r.allows("/photos/a.jpg", for: ["someone-else"]), "others fall back to *")
        #expect(r.allows("/photos/a.jpg", for: ["mybot", "fetch-gallery"]), "a later token is used when the first has no group")
    }

    @Test func wildcardsAndTheEndAnchor() {
        let r = robots("""
            user-agent: *
            disallow: /*.jpg$
            disallow: /tmp*/cache
            """)
        #expect(!r.allows("/a/b.jpg", for: us))
        #expect(r.allows("/a/b.jpg?size=2", for: us), "$ anchors the end")
        #expect(r.allows("/a/b.jpeg", for: us))
        #expect(!r.allows("/tmp-1/x/cache/y", for: us))
        #expect(r.allows("/tmp-1/x/nocach", for: us))
    }

    @Test func percentEncodingIsNormalisedOnBothSides() {
        let r = robots("User-agent: *\nDisallow: /a%7eb\nDisallow: /caf%C3%A9\n")
        #expect(!r.allows("/a~b/x", for: us))
        #expect(!r.allows("/café.jpg", for: us))
        #expect(r.allows("/a%2Fb", for: us))
    }

    @Test func commentsBlankLinesUnknownKeysAndRulesOutsideGroups() {
        let r = robots("""
            Disallow: /before-any-group
            # a comment
            User-agent: * # trailing comment
            Crawl-delay: 10
            Sitemap: https://example.com/sitemap.xml
            Disallow:
            Disallow: /x # comment
            garbage line without colon
            """)
        #expect(r.allows("/before-any-group", for: us))
        #expect(r.allows("/y", for: us), "an empty Disallow is no rule")
        #expect(!r.allows("/x/1", for: us))
    }

    @Test func failedFetchesAndTheFileItself() {
        #expect(RobotsTxt.allowAll.allows("/anything", for: us))
        #expect(!RobotsTxt.disallowAll.allows("/anything", for: us))
        #expect(RobotsTxt.disallowAll.allows("/robots.txt", for: us))
        #expect(robots("User-agent: *\nDisallow: /\n").allows("/robots.txt", for: us))
    }

    @Test func onlyTheFirst500KiBAreParsed() {
        let filler = String(repeating: "# padding padding padding padding padding padding padding\n", count: 10_000)
        let r = robots("User-agent: *\nDisallow: /early\n" + filler + "Disallow: /late\n")
        #expect(filler.utf8.count > RobotsTxt.parsedLimit)
        #expect(!r.allows("/early", for: us))
        #expect(r.allows("/late", for: us))
    }

    @Test func binaryJunkParsesToNothing() {
        var bytes: [UInt8] = []
        var x: UInt32 = 12345
        for _ in 0..<65536 { x = x &* 1_103_515_245 &+ 12345; bytes.append(UInt8(truncatingIfNeeded: x >> 16)) }
        let r = RobotsTxt(parsing: bytes)
        #expect(r.allows("/a.jpg", for: us))
    }

    @Test func contentSignalAndContentUsageLinesInAGroup() {
        let r = robots("""
            User-agent: *
            Content-Signal: search=yes, ai-train=no
            Allow: /
            Content-Usage: /open/ train-ai=y
            """)
        let policy = OptOutPolicy(tokens: us)
        let origin = OriginConsent(robots: r)
        #expect(policy.beforeRequest(path: "/a.jpg", origin: origin)?.detail == "robots.txt Content-Signal ai-train=no")
        #expect(policy.beforeRequest(path: "/open/a.jpg", origin: origin) == nil, "a more specific line grants it again")
        #expect(OptOutPolicy(tokens: us, ignored: [.contentSignal]).beforeRequest(path: "/a.jpg", origin: origin) == nil)
    }
}
