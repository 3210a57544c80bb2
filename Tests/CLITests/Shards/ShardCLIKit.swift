import Foundation
import GalleryTestSupport
import Testing

/// Runs shards of one job with the built binary and compares the merged gallery with the one a
/// single process makes.
enum ShardCLIKit {
    static let fast = ["--workers", "2", "--sizes", "64,128", "--progress", "none"]

    /// Runs shards 0..<count of `arguments` at once into `out`, waits for all; their exit statuses.
    static func runShards(_ count: Int, _ arguments: [String], out: String, timeout: Double = 120) throws -> [ProcessResult] {
        let runners = try (0..<count).map { k in
            try ProcessRunner(GalleryCLIKit.binary, arguments + ["--out", out, "--shard", "\(k)/\(count)"] + fast)
        }
        return runners.map { $0.wait(timeout: timeout) }
    }

    static func merge(_ out: String, _ extra: [String] = []) throws -> ProcessResult {
        try ProcessRunner.run(GalleryCLIKit.binary, ["merge", out] + extra, timeout: 60)
    }

    /// The two galleries hold the same files: the same manifest apart from its time stamp, the same
    /// index, the same photo pages, and the same originals and thumbnails byte for byte.
    static func expectSameGallery(_ one: String, _ merged: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let a = try GalleryCLIKit.manifest(one)
        let b = try GalleryCLIKit.manifest(merged)
        #expect(a["source"] as? String == b["source"] as? String, sourceLocation: sourceLocation)
        let photosA = a["photos"] as? [[String: Any]] ?? []
        let photosB = b["photos"] as? [[String: Any]] ?? []
        #expect(!photosA.isEmpty, sourceLocation: sourceLocation)
        #expect(NSArray(array: photosA).isEqual(to: photosB), "manifests differ", sourceLocation: sourceLocation)
        for photo in photosA {
            let files = [photo["original"] as? String].compactMap { $0 } + ((photo["thumbnails"] as? [String: String]) ?? [:]).values
            for path in files {
                let x = FileManager.default.contents(atPath: one + "/" + path)
                #expect(x != nil && x == FileManager.default.contents(atPath: merged + "/" + path), "\(path) differs",
                        sourceLocation: sourceLocation)
            }
        }
        #expect(FileManager.default.contents(atPath: one + "/index.html") == FileManager.default.contents(atPath: merged + "/index.html"),
                "index.html differs", sourceLocation: sourceLocation)
        let pagesA = try FileManager.default.contentsOfDirectory(atPath: one + "/pages").sorted()
        let pagesB = try FileManager.default.contentsOfDirectory(atPath: merged + "/pages").sorted()
        #expect(pagesA == pagesB && !pagesA.isEmpty, sourceLocation: sourceLocation)
        for page in pagesA {
            #expect(FileManager.default.contents(atPath: one + "/pages/" + page) == FileManager.default.contents(atPath: merged + "/pages/" + page),
                    "pages/\(page) differs", sourceLocation: sourceLocation)
        }
    }
}
