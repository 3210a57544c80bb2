import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// `nothingOnDisk`: a caller that made the destination's folder itself says nothing is there, and the first
/// attempt does not look for a partial to resume. Later attempts still resume what the earlier ones kept
/// (`DownloadResumeTests.cutOnceResumesWithRangeByteExact`).
@Suite struct DownloadNothingOnDiskTests {
    @Test("the first attempt does not look for a partial; with the flag off it resumes the one there")
    func firstAttemptDoesNotLook() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(50_000)
        server.route("/a.jpg") { _, _ in .file(body, etag: "\"v1\"") }
        for flag in [false, true] {
            let dir = try TempDirectory()
            let dest = dir.file("a.jpg")
            // A partial of this URL as an earlier process would leave it (which the flag says is not there).
            try dir.write(Array(body[..<20_000]), to: "a.jpg.part")
            try PartPaths(destination: dest).saveSidecar(Sidecar(url: server.url("/a.jpg"), validator: .etag("\"v1\""),
                                                                expectedLength: 50_000), durable: false)
            let before = server.requests(path: "/a.jpg").count
            var request = DownloadRequest(url: server.url("/a.jpg"), destination: dest)
            request.nothingOnDisk = flag
            _ = try await Kit.engine().download(request)
            #expect(Kit.read(dest) == body)
            let first = server.requests(path: "/a.jpg")[before]
            #expect(first.headers["Range"] == (flag ? nil : "bytes=20000-"), "nothingOnDisk \(flag)")
        }
    }
}
