import Foundation
import GalleryTestSupport
import Testing

/// One gallery whose photos meet every fault that cannot be recovered from, beside a few good photos:
/// the run ends within its deadline with exit status 1, the good photos byte-exact, every broken one in
/// gallery.json as failed with a reason that says what went wrong.
extension HostileNetwork {
@Suite struct HostileFailureTests {
    @Test func everyUnrecoverableFaultInOneGallery() async throws {
        let api = try HostileAPI()
        let camera = try HostileAPI.camera(1)
        // Good neighbours, to prove the faults harm nothing else.
        for id in 1...3 {
            let bytes = try id == 2 ? HostileAPI.small : HostileAPI.portrait(id)
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
        // 429 asking for a day's wait: given up at once rather than waited past the deadline.
        api.photo(206, name: "Come back tomorrow", expect: .failed(anyOf: ["HTTP 429"])) { _, _ in
            .status(429, headers: ["Retry-After": "86400"], text: "slow down\n")
        }
        // A real JPEG whose header claims 30000 x 30000 pixels (900 MP): refused by the decode guard, not allocated.
        let bomb = Self.pixelBomb(try HostileAPI.small, width: 30000, height: 30000)
        api.photo(207, name: "Pixel bomb", expect: .failed(anyOf: ["imaging"])) { _, _ in
            .file(bomb, contentType: "image/jpeg")
        }
        // Only a file: URL, or a javascript: one, is offered: listed, never fetchable, reported.
        api.photo(203, name: "Local file", imageURL: "file:///etc/passwd", expect: .failed(anyOf: ["no http(s) image URL"]))
        api.photo(204, name: "Script URL", imageURL: "javascript:alert(1)", expect: .failed(anyOf: ["no http(s) image URL"]))
        // Terminal escapes in a name and an offered URL (set the title, clear the screen): printed cleaned.
        api.photo(208, name: "\u{1B}]0;pwned\u{07}\u{1B}[2J", imageURL: "file:///x\u{1B}[31mred\u{1B}[0m",
                  expect: .failed(anyOf: ["no http(s) image URL"]))
        // The address rule: 0.0.0.0 reaches this machine on Linux, and is refused before connecting.
        let zero = "http://0.0.0.0:\(api.server.port)/img/zero.jpg"
        api.photo(205, name: "Unspecified address", imageURL: zero,
                  expect: .failed(anyOf: ["refused to connect to 0.0.0.0 (unspecified)"]))
        api.server.route("/img/zero.jpg") { _, _ in .file(camera, contentType: "image/jpeg") }
        api.never(request: "/img/zero.jpg")

        let run = try await HostileRun.run(api, pages: 1)
        try run.verify(api, exitStatus: 1)
        // Every failure is also on stderr, one line each, naming the photo.
        let errorLines = run.result.stderrText.split(separator: "\n").filter { $0.hasPrefix("error: photo") }
        #expect(errorLines.count == api.expectations.values.filter { if case .failed = $0 { true } else { false } }.count)
        // The stalls and trickle were cut at the deadline, not waited out (600 s / 200 B/s on 350 kB).
        #expect(run.result.duration < HostileRun.deadline + 40)
        // Permanent failures are not retried: the loop is followed once (1 + 5 redirects), a 404 asked once.
        #expect(api.server.requests(path: HostileAPI.imagePath(109)).count == 6)
        #expect(api.server.requests(path: HostileAPI.imagePath(113)).count == 1, "a 404 is not retried")
        #expect(api.server.requests(path: HostileAPI.imagePath(206)).count == 1, "a day's Retry-After is not waited for")
    }

    /// `jpeg` with its SOF dimensions rewritten (a decompression bomb that is otherwise a valid file).
    static func pixelBomb(_ jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg
        for i in 0..<(bytes.count - 9) where bytes[i] == 0xFF && (0xC0...0xC2).contains(bytes[i + 1]) {
            // FF Cn, length (2), precision (1), height (2), width (2)
            bytes[i + 5] = UInt8(height >> 8); bytes[i + 6] = UInt8(height & 0xFF)
            bytes[i + 7] = UInt8(width >> 8); bytes[i + 8] = UInt8(width & 0xFF)
            return bytes
        }
        return bytes
    }
}
}
