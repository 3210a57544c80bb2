import Foundation
import GalleryTestSupport
import Testing

/// One gallery whose photos meet every fault that cannot be recovered from, beside a few good photos:
/// the run ends within its deadline with exit status 1, the good photos byte-exact, every broken one in
/// gallery.json as failed with a reason that says what went wrong.
@Suite struct HostileFailureTests {
    @Test func everyUnrecoverableFaultInOneGallery() throws {
        let api = try HostileAPI()
        let camera = HostileAPI.camera(1)
        // Good neighbours, to prove the faults harm nothing else.
        for id in 1...3 {
            let bytes = id == 2 ? HostileAPI.small : HostileAPI.portrait(id)
            api.photo(id, expect: .ok(bytes)) { _, _ in .file(bytes, etag: "\"g\(id)\"", contentType: "image/jpeg") }
        }
        let cut = ["body cut short"]
        let slow = ["timed out", "slower than"]
        let scenarios: [(HostileScenario, [String])] = [
            (.stalledBody, slow), (.stalledHeaders, slow), (.slowDrip, slow),
            (.lyingContentLength, cut), (.hugeContentLength, ["larger than the"]),
            (.conflictingContentLengths, ["conflicting Content-Length"]),
            (.gzipBomb, ["not an image", "larger than the"]), (.htmlAsJPEG, ["not an image"]),
            (.emptyBody, ["not an image", "imaging"]), (.redirectLoop, ["more than 5 redirects"]),
            (.redirectToFile, ["redirect to a non-http(s) URL refused"]),
            (.redirectToClosedPort, ["could not connect"]), (.wrongContentRange, ["resume rejected"]),
            (.notFound, ["HTTP 404"]), (.serverError, ["HTTP 500"]), (.endlessHeaders, ["invalid response"]),
            (.garbageResponse, ["invalid response"]), (.emptyReply, ["network error", "invalid response", "could not connect"]),
        ]
        for (offset, (scenario, phrases)) in scenarios.enumerated() {
            api.scenario(100 + offset, scenario, payload: camera, expect: .failed(anyOf: phrases))
        }
        // Cut on every attempt, and the server ignores Range: each attempt starts over and is cut again.
        api.photo(200, name: "Cut every time", expect: .failed(anyOf: cut)) { _, _ in
            .file(camera, etag: "\"c\"", contentType: "image/jpeg", ignoringRange: true).cut(afterBodyBytes: camera.count / 2)
        }
        // 503 on every attempt, with a Retry-After the engine honours within the deadline.
        api.photo(201, name: "Always busy", expect: .failed(anyOf: ["HTTP 503"])) { _, _ in
            .status(503, headers: ["Retry-After": "1"], text: "busy\n")
        }
        // A JPEG signature over broken data: downloaded, but no thumbnail can be made.
        let corrupt = try Corpus.bytes("jpeg-corrupt/invalid-dimensions.jpg")
        api.photo(202, name: "Corrupt", expect: .failed(anyOf: ["imaging"])) { _, _ in
            .file(corrupt, contentType: "image/jpeg")
        }
        // Only a file: URL, or a javascript: one, is offered: listed, never fetchable, reported.
        api.photo(203, name: "Local file", imageURL: "file:///etc/passwd", expect: .failed(anyOf: ["no http(s) image URL"]))
        api.photo(204, name: "Script URL", imageURL: "javascript:alert(1)", expect: .failed(anyOf: ["no http(s) image URL"]))
        // The address rule: 0.0.0.0 reaches this machine on Linux, and is refused before connecting.
        let zero = "http://0.0.0.0:\(api.server.port)/img/zero.jpg"
        api.photo(205, name: "Unspecified address", imageURL: zero,
                  expect: .failed(anyOf: ["refused to connect to 0.0.0.0 (unspecified)"]))
        api.server.route("/img/zero.jpg") { _, _ in .file(camera, contentType: "image/jpeg") }
        api.never(request: "/img/zero.jpg")

        let run = try HostileRun.run(api, pages: 1)
        try run.verify(api, exitStatus: 1)
        // Every failure is also on stderr, one line each, naming the photo.
        let errorLines = run.result.stderrText.split(separator: "\n").filter { $0.hasPrefix("error: photo") }
        #expect(errorLines.count == api.expectations.values.filter { if case .failed = $0 { true } else { false } }.count)
        // The stalls and trickle were cut at the deadline, not waited out (600 s / 200 B/s on 350 kB).
        #expect(run.result.duration < HostileRun.deadline + 40)
        // Permanent failures are not retried: the loop is followed once (1 + 5 redirects), a 404 asked once.
        #expect(api.server.requests(path: HostileAPI.imagePath(109)).count == 6)
        #expect(api.server.requests(path: HostileAPI.imagePath(113)).count == 1, "a 404 is not retried")
    }
}
