import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// Colour through the public API: the pipeline hands back sRGB by default, the file's own pixels
/// when asked, and the two never share a cache entry.
@Suite struct PipelineColorTests {
    /// The corpus' upright landscape converted to Display P3 (profile embedded) by LittleCMS's jpgicc,
    /// with the test profile of `GalleryImagingTests/Fixtures/icc`.
    static func displayP3Photo(in dir: TempDirectory) throws -> String {
        let profile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("GalleryImagingTests/Fixtures/icc/display-p3-compatible.icc").path
        let out = dir.file("p3.jpg")
        let result = try ProcessRunner.run("/usr/bin/jpgicc", ["-e", "-q95", "-o" + profile, Corpus.path(APIKit.uprightPhoto), out])
        #expect(result.status == 0, "jpgicc: \(String(decoding: result.stderr, as: UTF8.self))")
        return out
    }

    @Test func pipelineConvertsToSRGBUnlessAskedNotTo() async throws {
        let dir = try TempDirectory()
        let path = try Self.displayP3Photo(in: dir)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let cache = ImageCache(costLimit: 64 << 20)
        let converting = APIKit.pipeline { $0.cache = cache }
        let keeping = APIKit.pipeline { $0.cache = cache; $0.convertsToSRGB = false }

        let srgb = try await converting.image(fileAt: path, size: .longestEdge(256))
        let own = try await keeping.image(fileAt: path, size: .longestEdge(256))
        let converted = Thumbnailer(longestEdge: 256)
        let unconverted = Thumbnailer(longestEdge: 256, decodeOptions: DecodeOptions(readsColorProfiles: false))
        #expect(srgb == (try bytes.withUnsafeBytes { try converted.render($0, name: "p3") }))
        #expect(own == (try bytes.withUnsafeBytes { try unconverted.render($0, name: "p3") }))
        #expect(srgb != own)
        #expect(keeping.statistics.decodes == 1, "a cached sRGB bitmap is not the file's own pixels")

        let decoded = try ImageDecoder.decode(bytes, name: "p3")
        guard case .icc(let profile) = decoded.colorProfile else { Issue.record("no profile"); return }
        #expect(profile.count > 128)
        #expect(decoded.colorProfile?.name == "Display P3 compatible (test)")
        #expect(!decoded.isSRGB)
    }
}
