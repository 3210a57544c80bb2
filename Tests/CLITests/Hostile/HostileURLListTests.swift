import Foundation
import GalleryTestSupport
import Testing

/// URLs the user named (`run --urls`, `download`) meet the same hostile servers: the fetchable ones
/// arrive byte-exact, the others fail with a reason, nothing leaves the output folder, exit status 1.
extension HostileNetwork {
@Suite struct HostileURLListTests {
    /// A server with one good photo and the faults a named URL can meet, by path.
    static func serve(_ server: FaultServer) throws -> (good: [String: [UInt8]], bad: [String: [String]]) {
        let camera = try HostileAPI.camera(8), small = try HostileAPI.small
        server.route("/good.jpg") { _, _ in .file(camera, etag: "\"g\"", contentType: "image/jpeg") }
        server.route("/cut-once.jpg") { _, attempt in
            let file = FaultServer.Response.file(small, etag: "\"c\"", contentType: "image/jpeg")
            return attempt == 1 ? file.cut(afterBodyBytes: small.count / 3) : file
        }
        HostileScenario.redirectLoop.install(on: server, path: "/loop.jpg", payload: camera)
        HostileScenario.htmlAsJPEG.install(on: server, path: "/page.jpg", payload: camera)
        // A login page twice, then the photo: discarded, retried, saved.
        HostileScenario.captivePortal.install(on: server, path: "/portal.jpg", payload: small)
        HostileScenario.redirectToFile.install(on: server, path: "/to-file.jpg", payload: camera)
        // A named loopback URL redirecting to 0.0.0.0 (this machine, by another name): refused.
        let zero = "http://0.0.0.0:\(server.port)/good.jpg"  // a value: a handler must not hold its server
        server.route("/to-zero.jpg") { _, _ in .redirect(to: zero) }
        return (["/good.jpg": camera, "/cut-once.jpg": small, "/portal.jpg": small],
                ["/loop.jpg": ["more than 5 redirects"], "/page.jpg": ["not an image: the body is HTML text"],
                 "/to-file.jpg": ["redirect to a non-http(s) URL refused"],
                 "/to-zero.jpg": ["refused to connect to 0.0.0.0 (unspecified)"]])
    }

    @Test func runWithAURLList() async throws {
        let server = try FaultServer()
        let (good, bad) = try Self.serve(server)
        let parent = try TempDirectory(prefix: "fetch-gallery-hostile")
        let list = (good.keys.sorted() + bad.keys.sorted()).map { server.url($0) } + ["file:///etc/passwd", "../../x.jpg"]
        let listPath = try parent.write(Array(list.joined(separator: "\n").utf8), to: "urls.txt")
        try FileManager.default.createDirectory(atPath: parent.file("work"), withIntermediateDirectories: true)
        let out = parent.file("work/gallery")
        let before = HostileRun.tree(parent.path)
        let result = try await HostileRun.process(GalleryCLIKit.binary, [
            "--urls", listPath, "--out", out, "--progress", "none", "--deadline", "8", "--workers", "2", "--sizes", "64",
        ], timeout: 90)
        #expect(result.exitCode == 1, "stderr: \(result.stderrText)")
        #expect(result.duration < 60)
        let outside = HostileRun.tree(parent.path).subtracting(before).filter { !$0.hasPrefix("work/gallery") }
        #expect(outside.isEmpty, "written outside the gallery: \(outside.sorted())")
        let photos = try GalleryCLIKit.manifestPhotos(out)
        let bySource = Dictionary(photos.compactMap { p in (p["source_url"] as? String).map { ($0, p) } }) { a, _ in a }
        for (path, bytes) in good {
            let entry = bySource[server.url(path)]
            #expect(entry?["status"] as? String == "ok", "\(path): \(entry?["error"] ?? "missing")")
            let original = (entry?["original"] as? String).map { out + "/" + $0 } ?? "-"
            #expect(FileManager.default.contents(atPath: original).map { [UInt8]($0) } == bytes, "\(path) not byte-exact")
        }
        for (path, phrases) in bad {
            let reason = bySource[server.url(path)]?["error"] as? String ?? ""
            #expect(phrases.contains { reason.contains($0) }, "\(path): \(reason)")
        }
        // The two lines that are not http(s) URLs were reported, never fetched.
        #expect(result.stderrText.contains("not an absolute http or https URL"), "\(result.stderrText)")
        #expect(photos.count == good.count + bad.count)
        #expect(server.requests(path: "/good.jpg").count == 1, "0.0.0.0 never reached /good.jpg a second time")
    }

    @Test func downloadCommandWithHostileURLs() async throws {
        let server = try FaultServer()
        let (good, bad) = try Self.serve(server)
        let parent = try TempDirectory(prefix: "fetch-gallery-hostile")
        let list = (good.keys.sorted() + bad.keys.sorted()).map { server.url($0) }
        let listPath = try parent.write(Array(list.joined(separator: "\n").utf8), to: "urls.txt")
        let out = parent.file("work/files")
        let before = HostileRun.tree(parent.path)
        let result = try await HostileRun.process(GalleryCLIKit.binary, [
            "download", "--urls", listPath, "--out", out, "--progress", "none", "--deadline", "8",
        ], timeout: 90)
        #expect(result.exitCode == 1, "stderr: \(result.stderrText)")
        let outside = HostileRun.tree(parent.path).subtracting(before).filter { !$0.hasPrefix("work") }
        #expect(outside.isEmpty, "written outside the folder: \(outside.sorted())")
        for (path, bytes) in good {
            let file = out + "/" + (path as NSString).lastPathComponent
            #expect(FileManager.default.contents(atPath: file).map { [UInt8]($0) } == bytes, "\(path) not byte-exact")
        }
        for (path, phrases) in bad {
            #expect(!FileManager.default.fileExists(atPath: out + "/" + (path as NSString).lastPathComponent))
            let line = result.stderrText.split(separator: "\n").first { $0.contains(server.url(path)) } ?? ""
            #expect(phrases.contains { line.contains($0) }, "\(path): \(line)")
        }
        #expect(server.requests(path: "/good.jpg").count == 1, "0.0.0.0 never reached /good.jpg a second time")
        // Images are checked by default: the HTML page was asked for 5 times, then reported; nothing kept.
        #expect(server.requests(path: "/page.jpg").count == 5)
        #expect(server.requests(path: "/portal.jpg").count == 3)
        #expect(!FileManager.default.fileExists(atPath: out + "/page.jpg.part"))
    }

    /// `--any-file` saves what the server sends, pages included (the old behaviour, now asked for).
    @Test func downloadAnyFileSavesTheHTMLPage() async throws {
        let server = try FaultServer()
        HostileScenario.htmlAsJPEG.install(on: server, path: "/page.jpg", payload: [])
        let parent = try TempDirectory(prefix: "fetch-gallery-hostile")
        let listPath = try parent.write(Array(server.url("/page.jpg").utf8), to: "urls.txt")
        let result = try await HostileRun.process(GalleryCLIKit.binary, [
            "download", "--urls", listPath, "--out", parent.file("files"), "--progress", "none", "--any-file",
        ], timeout: 60)
        #expect(result.exitCode == 0, "\(result.stderrText)")
        let saved = FileManager.default.contents(atPath: parent.file("files/page.jpg")).map { [UInt8]($0) } ?? []
        #expect(saved.starts(with: Array("<!DOCTYPE html>".utf8)))
        #expect(server.requests(path: "/page.jpg").count == 1)
    }
}
}
