import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// What a hostile client or source must not get: loopback and private addresses, paths out of the
/// root (symlinks included), other hosts, images past the limits, crashes on broken files.
@Suite(.serialized) struct ServeSafetyTests {
    @Test func refusesPrivateAddressesAndEscapesFromTheRoot() async throws {
        let dir = try TempDirectory(prefix: "serve-root")
        defer { dir.remove() }
        let outside = try TempDirectory(prefix: "serve-outside")
        defer { outside.remove() }
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        _ = try dir.write(photo, to: "in.jpg")
        let secret = try outside.write(photo, to: "secret.jpg")
        #expect(symlink(secret, dir.file("link.jpg")) == 0)
        #expect(symlink(outside.path, dir.file("linkdir")) == 0)
        let origin = try FaultServer()
        defer { origin.stop() }
        origin.route("/a.jpg") { _, _ in .file(photo, etag: "\"v1\"", contentType: "image/jpeg") }
        let server = try await ServeProcess(["--root", dir.path, "--quiet"])
        defer { _ = server.stop() }
        func status(_ source: String) async throws -> (Int, String) {
            let response = try await Client.get(server.baseURL + "/insecure/w:20/plain/" + source)
            return (response.status, response.text)
        }
        #expect(try await status("local:///in.jpg").0 == 200)
        // Loopback through an address, a name resolving to it, and 169.254.169.254 (metadata service).
        for source in [origin.url("/a.jpg"), "http://localhost:\(origin.port)/a.jpg", "http://169.254.169.254/latest/meta-data"] {
            let (code, text) = try await status(source)
            #expect(code == 403, "\(source): \(code) \(text)")
        }
        for source in ["local:///../" + (outside.path as NSString).lastPathComponent + "/secret.jpg", "local:///link.jpg",
                       "local:///linkdir/secret.jpg", "local:///%2E%2E/%2E%2E/etc/passwd"] {
            let (code, text) = try await status(source)
            #expect(code == 403 || code == 404, "\(source): \(code) \(text)")
            #expect(code != 200)
        }
        #expect(try await status("file:///etc/passwd").0 == 400)
        #expect(try await status("ftp://example.com/a.jpg").0 == 400)
        #expect(origin.requests(path: "/a.jpg").isEmpty, "the loopback origin was contacted")

        // Allowed private addresses, but not this host: the allow-list refuses before any connection.
        let listed = try await ServeProcess(["--allow-private-addresses", "--allow-host", "images.example.com", "--quiet"])
        defer { _ = listed.stop() }
        #expect(try await Client.get(listed.baseURL + "/insecure/w:20/plain/" + origin.url("/a.jpg")).status == 403)
        #expect(origin.requests(path: "/a.jpg").isEmpty)
    }

    /// A redirect is checked like the first request: with private addresses allowed, an origin on loopback
    /// that redirects to 0.0.0.0 (which reaches this machine's listeners on Linux) is still refused.
    @Test func aRedirectIntoARefusedAddressIsStopped() async throws {
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let origin = try FaultServer()
        defer { origin.stop() }
        let target = try FaultServer()
        defer { target.stop() }
        target.route("/secret.jpg") { _, _ in .file(photo, contentType: "image/jpeg") }
        origin.route("/a.jpg") { _, _ in .redirect(to: "http://0.0.0.0:\(target.port)/secret.jpg") }
        origin.route("/ok.jpg") { _, _ in .redirect(to: target.url("/secret.jpg")) }
        let server = try await ServeProcess(["--allow-private-addresses", "--quiet"])
        defer { _ = server.stop() }
        let refused = try await Client.get(server.baseURL + "/insecure/w:20/plain/" + origin.url("/a.jpg"))
        #expect(refused.status == 403 && refused.text.contains("0.0.0.0"), "\(refused.status) \(refused.text)")
        #expect(origin.requests(path: "/a.jpg").count == 1 && target.allRequests.isEmpty, "the redirect reached its target")
        // The same redirect to an allowed address is followed.
        #expect(try await Client.get(server.baseURL + "/insecure/w:20/plain/" + origin.url("/ok.jpg")).status == 200)
        #expect(target.requests(path: "/secret.jpg").count == 1)
    }

    /// Download limits: a source that never answers is cut off at --download-timeout (504), one bigger than
    /// --max-source-mb at the limit (413), an HTML page served as an image is 422, the source's 404 is 404.
    @Test func downloadLimitsAnswerWithTheirOwnStatus() async throws {
        let origin = try FaultServer()
        defer { origin.stop() }
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        origin.route("/slow.jpg") { _, _ in FaultServer.Response.file(photo, contentType: "image/jpeg").stallBeforeHeaders(seconds: 8) }
        origin.route("/big.jpg") { _, _ in .file(photo + [UInt8](repeating: 0, count: 3 << 20), contentType: "image/jpeg") }
        origin.route("/page.jpg") { _, _ in .html("<!doctype html><p>login</p>") }
        origin.route("/gone.jpg") { _, _ in .status(404, text: "no") }
        let server = try await ServeProcess(["--allow-private-addresses", "--quiet", "--download-timeout", "1", "--max-source-mb", "2"])
        defer { _ = server.stop() }
        func get(_ path: String) async throws -> (status: Int, text: String) {
            try Client.curl(server.baseURL + "/insecure/w:20/plain/" + origin.url(path))
        }
        let started = Date()
        let slow = try await get("/slow.jpg")
        #expect(slow.status == 504 && slow.text.contains("slow.jpg"), "\(slow.status) \(slow.text)")
        #expect(Date().timeIntervalSince(started) < 5, "the timeout took \(Date().timeIntervalSince(started)) s")
        let big = try await get("/big.jpg")
        #expect(big.status == 413 && big.text.contains("big.jpg"), "\(big.status) \(big.text)")
        let page = try await get("/page.jpg")
        #expect(page.status == 422, "\(page.status) \(page.text)")
        #expect(try await get("/gone.jpg").status == 404)
    }

    @Test func hostileAndOversizedSourcesGetErrorsNotCrashes() async throws {
        let dir = try TempDirectory(prefix: "serve-hostile")
        defer { dir.remove() }
        var names: [String] = []
        for entry in Corpus.entries where entry.expect == "error" {
            let name = "c\(names.count)-" + (entry.file as NSString).lastPathComponent
            _ = try dir.write(try Corpus.bytes(entry.file), to: name)
            names.append(name)
        }
        // The kept fuzz inputs of the codecs and of the EXIF reader (which the decoder runs on every JPEG).
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        for folder in ["GalleryImagingTests/Fixtures/fuzz-regressions", "GalleryImagingTests/Fixtures/exif-fuzz-regressions"] {
            let fixtures = tests.appendingPathComponent(folder).path
            for name in try FileManager.default.contentsOfDirectory(atPath: fixtures) {
                _ = try dir.write([UInt8](try Data(contentsOf: URL(fileURLWithPath: fixtures + "/" + name))), to: "f\(names.count)-" + name)
                names.append("f\(names.count)-" + name)
            }
        }
        #expect(names.count > 20)
        // A 4000x4000 PNG: over a 10 MP limit. And a 3 MB file: over a 2 MB limit.
        let big = try ImageEncoder.encodePNG(Bitmap(width: 4000, height: 4000, format: .gray8))
        _ = try dir.write(big, to: "big.png")
        _ = try dir.write([UInt8](repeating: 0xFF, count: 3 << 20), to: "huge.jpg")
        let server = try await ServeProcess(["--root", dir.path, "--quiet", "--max-megapixels", "10", "--max-source-mb", "2"])
        defer { _ = server.stop() }
        var crashed = false
        for name in names {
            let response = try await Client.get(server.baseURL + "/insecure/rs:fill:64:64/plain/local:///" + name)
            #expect((400..<500).contains(response.status) || response.status == 200, "\(name): \(response.status) \(response.text)")
            if server.runner.hasExited { crashed = true; break }
        }
        #expect(!crashed, "the service died: \(server.runner.stderrText.suffix(2000))")
        let tooManyPixels = try await Client.get(server.baseURL + "/insecure/w:64/plain/local:///big.png")
        #expect(tooManyPixels.status == 413 && tooManyPixels.text.contains("big.png"), "\(tooManyPixels.text)")
        let tooManyBytes = try await Client.get(server.baseURL + "/insecure/w:64/plain/local:///huge.jpg")
        #expect(tooManyBytes.status == 413 && tooManyBytes.text.contains("huge.jpg"), "\(tooManyBytes.text)")
        #expect(try await Client.get(server.baseURL + "/health").status == 200)
    }
}
