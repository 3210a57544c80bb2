import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// The photographs the fingerprint tests hash, and Python's reference implementations to check against.
enum FingerprintFixtures {
    /// Every image in the corpus that must decode, and the demo catalogue's photographs.
    static func photos() throws -> [String] {
        let corpus = try Corpus.entries.filter { $0.expect == "ok" && isImage($0.file) }.map { try Corpus.path($0.file) }
        let demo = try FileManager.default.contentsOfDirectory(atPath: demoFolder).filter(isImage).sorted()
            .map { demoFolder + "/" + $0 }
        return corpus + demo
    }

    static let demoFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/GalleryDemo/Resources/demo-photos").path

    static func isImage(_ name: String) -> Bool {
        ["jpg", "jpeg", "png", "gif", "webp"].contains((name as NSString).pathExtension.lowercased())
    }

    /// The upright 256-pixel thumbnail bitmap the gallery makes, which its hashes are taken from.
    static func thumbnail(_ path: String) throws -> Bitmap {
        try Thumbnailer(longestEdge: 256).render(ImageDecoder.decode(fileAt: path, options: DecodeOptions(target: .longestEdge(256))))
    }

    /// Runs `script` in python3 with `arguments`; a missing module fails the test with what to install.
    static func python(_ script: String, _ arguments: [String], timeout: Double = 300) throws -> String {
        let result = try ProcessRunner.run("python3", ["-c", script] + arguments, timeout: timeout)
        try #require(result.exitCode == 0,
                     "python3 failed (Scripts/bootstrap installs imagehash and thumbhash-python): \(result.stderrText)")
        return result.stdoutText
    }
}
