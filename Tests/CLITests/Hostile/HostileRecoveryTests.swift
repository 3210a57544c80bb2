import Foundation
import GalleryTestSupport
import Testing

/// One gallery whose servers misbehave in every way a careful client recovers from, and whose listing
/// text is hostile (path escapes, markup, huge, NUL, bidi), with duplicates, NSFW items and unreadable
/// items: every photo that can be fetched is in the gallery byte-exact, nothing leaves the folder, no
/// markup gets into the pages, and the run exits 0.
extension HostileNetwork {
@Suite struct HostileRecoveryTests {
    @Test func recoverableFaultsAndHostileTextInOneGallery() async throws {
        let api = try HostileAPI()
        try Self.listRecoverableFaults(api)
        try Self.listHostileText(api)
        try Self.listSelectionCases(api)
        let run = try await HostileRun.run(api, pages: 2)
        try run.verify(api, exitStatus: 0)
        // The unreadable items were reported, not silently dropped.
        let skipped = run.result.stderrText.split(separator: "\n").filter { $0.hasPrefix("skipped:") }
        #expect(skipped.count == 3, "\(run.result.stderrText)")
        // A resumed download asked for the rest only: photo 10 (cut once at half) was not fetched twice.
        let camera = try HostileAPI.camera(0)
        #expect(api.server.bodyBytesSent(path: HostileAPI.imagePath(10)) < camera.count * 3 / 2 + 65_536)
        let rangeRequests = api.server.requests(path: HostileAPI.imagePath(10)).filter { $0.headers["Range"] != nil }
        #expect(rangeRequests.count >= 1, "the cut download was resumed with Range")
    }

    /// Faults that retries, resumes and restarts get past.
    static func listRecoverableFaults(_ api: HostileAPI) throws {
        let camera = try HostileAPI.camera(0)
        // Cut once (half the body, declared length kept), then resumed with Range + If-Range.
        api.scenario(10, .truncatedBody, payload: camera, expect: .ok(camera))
        api.scenario(11, .connectionReset, payload: try HostileAPI.camera(2), expect: .ok(try HostileAPI.camera(2)))
        api.scenario(12, .serviceUnavailable, payload: try HostileAPI.camera(3), expect: .ok(try HostileAPI.camera(3)))
        api.scenario(13, .tooManyRequests, payload: try HostileAPI.camera(4), expect: .ok(try HostileAPI.camera(4)))
        // Cut once, then the server ignores Range: the client must restart, never append the whole file.
        let ignored = try HostileAPI.camera(5)
        api.photo(14, name: "Range ignored", expect: .ok(ignored)) { _, attempt in
            let file = FaultServer.Response.file(ignored, etag: "\"r\"", contentType: "image/jpeg", ignoringRange: true)
            return attempt == 1 ? file.cut(afterBodyBytes: ignored.count / 2) : file
        }
        // Cut once, then the photo changed (new ETag): If-Range fails, the new photo arrives whole.
        let before = try HostileAPI.camera(6), after = try HostileAPI.camera(7)
        api.photo(15, name: "Changed ETag", expect: .ok(after)) { _, attempt in
            attempt == 1
                ? .file(before, etag: "\"old\"", contentType: "image/jpeg").cut(afterBodyBytes: before.count / 2)
                : .file(after, etag: "\"new\"", contentType: "image/jpeg")
        }
        // A connection closed without a byte, once.
        let small = try HostileAPI.small
        api.photo(16, name: "Dropped once", expect: .ok(small)) { _, attempt in
            let file = FaultServer.Response.file(small, etag: "\"d\"", contentType: "image/jpeg")
            return attempt == 1 ? file.droppingConnection() : file
        }
        // A 2 s stall mid-body, then the rest; a steady trickle (~100 kB/s) well inside the deadline.
        let stalled = try HostileAPI.portrait(1)
        api.photo(17, name: "Short stall", expect: .ok(stalled)) { _, _ in
            .file(stalled, etag: "\"s\"", contentType: "image/jpeg").stall(afterBodyBytes: 50_000, seconds: 2)
        }
        let trickled = try HostileAPI.portrait(2)
        api.photo(18, name: "Trickle", expect: .ok(trickled)) { _, _ in
            .file(trickled, etag: "\"t\"", contentType: "image/jpeg").trickle(bytesPerSecond: 100_000)
        }
        // A redirect within the API's host; gzip and chunked encodings.
        let moved = try HostileAPI.portrait(3)
        api.photo(19, name: "Moved", expect: .ok(moved)) { _, _ in .redirect(to: "/img/moved.jpg", status: 301) }
        api.server.route("/img/moved.jpg") { _, _ in .file(moved, etag: "\"m\"", contentType: "image/jpeg") }
        let zipped = try HostileAPI.portrait(4)
        api.photo(20, name: "Gzipped", expect: .ok(zipped)) { _, _ in .file(zipped, contentType: "image/jpeg").gzipEncoded() }
        // A download name suggested by the server is never used: names come from the photo id.
        let suggested = try HostileAPI.portrait(6)
        api.photo(22, name: "Suggests a name", expect: .ok(suggested)) { _, _ in
            .file(suggested, contentType: "image/jpeg")
                .header("Content-Disposition", "attachment; filename=\"../../../../escaped.jpg\"; filename*=UTF-8''..%2F..%2Fx.jpg")
        }
        let chunked = try HostileAPI.portrait(5)
        api.photo(21, name: "Chunked", expect: .ok(chunked)) { _, _ in .file(chunked, contentType: "image/jpeg").chunked() }
    }

    static let script = "<script>alert('name')</script>"
    static let onerror = "<img src=x onerror=alert(1)>"
    static let svg = "\"><svg onload=alert(2)>"
    static let closer = "</title></bdi><script>alert(3)</script>"

    /// Names, photographers and descriptions a server should never send; the photos themselves are fine.
    static func listHostileText(_ api: HostileAPI) throws {
        let small = try HostileAPI.small
        func serve(_ id: Int) -> FaultServer.Handler {
            { _, _ in .file(small, etag: "\"h\(id)\"", contentType: "image/jpeg") }
        }
        api.photo(30, name: "../../../../../../tmp/escaped", expect: .ok(small), handler: serve(30))
        api.photo(31, name: "../" + String(repeating: "../", count: 40) + "etc/passwd\u{0}.jpg", expect: .ok(small), handler: serve(31))
        api.photo(32, name: script, fields: ["description": onerror, "user": ["username": svg, "fullname": closer]],
                  expect: .ok(small), handler: serve(32))
        api.photo(33, name: String(repeating: "long name ", count: 500),  // 5,000 characters
                  fields: ["description": String(repeating: "<b>x</b>", count: 625)], expect: .ok(small), handler: serve(33))
        api.photo(34, name: "nul\u{0}in\u{0}the\u{0}middle", fields: ["description": "a\u{0}b\u{1}c\u{7F}"],
                  expect: .ok(small), handler: serve(34))
        api.photo(35, name: "\u{202E}gpj.exe", fields: ["description": "שלום עולם \u{202B}مرحبا بالعالم\u{202C}"],
                  expect: .ok(small), handler: serve(35))
        api.photo(36, name: "/absolute/path\\with\\backslashes:and:colons", expect: .ok(small), handler: serve(36))
        api.photo(37, name: "..", expect: .ok(small), handler: serve(37))
        api.photo(38, name: String(repeating: "é", count: 5000), expect: .ok(small), handler: serve(38))
        // Ids at the edges: negative (a name must not start with "-") and the largest integer.
        api.photo(-7, name: "-rf", expect: .ok(small), handler: serve(-7))
        api.photo(Int.max, name: "max", expect: .ok(small), handler: serve(Int.max))
        // A PNG served as image/jpeg from a .jpg URL: kept byte for byte, thumbnailed as what it is.
        let png = try Corpus.bytes("png-suite/basn6a08.png")
        api.photo(39, name: "PNG in disguise", expect: .ok(png)) { _, _ in .file(png, contentType: "image/jpeg") }
        for markup in [script, onerror, svg, closer, "<b>x</b>"] { api.injects(markup) }
    }

    /// Duplicates, NSFW, wrong-typed fields, unreadable items.
    static func listSelectionCases(_ api: HostileAPI) throws {
        let small = try HostileAPI.small
        // Photo 30 again on page 2, pointing elsewhere: the first listing wins, the second URL is never fetched.
        api.photo(30, page: 2, name: "Duplicate", imageURL: api.base + "/img/duplicate.jpg", expect: .ok(small))
        api.never(request: "/img/duplicate.jpg")
        api.photo(40, page: 2, name: "NSFW", fields: ["nsfw": true], expect: .absent)
        api.photo(41, page: 2, name: "NSFW as text", fields: ["nsfw": "yes please"], expect: .absent)
        // Wrong-typed optional fields are dropped, the photo kept.
        api.photo(42, page: 2, name: "Odd types", fields: ["rating": "high", "user": 42, "width": "wide", "nsfw": NSNull(),
                                                          "description": ["not": "text"]],
                  expect: .ok(small)) { _, _ in .file(small, contentType: "image/jpeg") }
        // Wrong-typed required fields: the item cannot be read and is reported as skipped.
        api.rawItem("{\"id\":\"43\",\"name\":\"id as text\",\"image_url\":\"\(api.base)/img/43.jpg\"}", page: 2, id: 43)
        api.rawItem("{\"id\":44,\"name\":[\"a\"],\"image_url\":\"\(api.base)/img/44.jpg\"}", page: 2, id: 44)
        api.rawItem("{\"id\":45,\"name\":\"no image\",\"images\":\"none\"}", page: 2, id: 45)
    }
}
}
