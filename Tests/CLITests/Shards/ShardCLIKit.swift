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

    /// The demo catalogue (4 pages of 50 real photographs) served by the built binary, and its API URL.
    static func serveDemo() async throws -> (ProcessRunner, String) {
        let runner = try ProcessRunner(GalleryCLIKit.binary, ["serve-demo", "--pages", "4"])
        var line: String?
        for _ in 0..<600 where line == nil {
            try await Task.sleep(for: .milliseconds(100))
            line = runner.stdoutText.split(separator: "\n").first.map(String.init)
        }
        let notice = try #require(line, "serve-demo printed nothing: \(runner.stderrText)")
        return (runner, String(notice.prefix { $0 != " " }))
    }

    /// The demo catalogue served (stop it with SIGTERM), `fetch-gallery run`'s arguments for it (4 pages,
    /// thumbnails of 64 and 128 px, one decoding thread) and the gallery one process makes of it in `out`,
    /// the one a sharded run must equal.
    static func demoGallery(oneProcessOut out: String) async throws -> (server: ProcessRunner, source: [String]) {
        let (server, api) = try await serveDemo()
        let source = ["--api", api, "--pages", "4", "--sizes", "64,128", "--workers", "1"]
        let one = try ProcessRunner.run(GalleryCLIKit.binary, ["run"] + source + ["--out", out, "--progress", "none"], timeout: 600)
        #expect(one.exitCode == 0, "the one-process run failed: \(one.stderrText)")
        return (server, source)
    }

    static func merge(_ out: String, _ extra: [String] = []) throws -> ProcessResult {
        try ProcessRunner.run(GalleryCLIKit.binary, ["merge", out] + extra, timeout: 60)
    }

    /// Folders and files of a gallery folder that are not the gallery: the run's state, the shards'
    /// parts and the plan. Everything else is compared.
    static let notTheGallery: Set<String> = [".fetch-gallery", "shards", "plan.jsonl"]

    /// The two galleries hold the same files: every file under either folder (outside
    /// ``notTheGallery``) is in both, byte for byte, `gallery.json` apart from its `generated` time.
    static func expectSameGallery(_ one: String, _ merged: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let photos = try GalleryCLIKit.manifestPhotos(one)
        #expect(!photos.isEmpty, "\(one) has no photos", sourceLocation: sourceLocation)
        let differences = try differences(one, merged)
        #expect(differences.isEmpty, "galleries differ: \(differences.prefix(20).joined(separator: "; "))", sourceLocation: sourceLocation)
    }

    /// What differs between the galleries in `one` and `other`: a line per file only in one of them or
    /// with other bytes. Empty when they hold the same gallery.
    static func differences(_ one: String, _ other: String) throws -> [String] {
        let filesA = try galleryFiles(one)
        let filesB = try galleryFiles(other)
        var found = filesA.subtracting(filesB).sorted().map { "\($0) only in \(one)" }
        found += filesB.subtracting(filesA).sorted().map { "\($0) only in \(other)" }
        for path in filesA.intersection(filesB).sorted() {
            var a = try Data(contentsOf: URL(fileURLWithPath: one + "/" + path))
            var b = try Data(contentsOf: URL(fileURLWithPath: other + "/" + path))
            if path == "gallery.json" { (a, b) = (withoutGeneratedTime(a), withoutGeneratedTime(b)) }
            if a != b { found.append("\(path) differs (\(a.count) and \(b.count) bytes)") }
        }
        return found
    }

    /// The paths, relative to `folder`, of every file under it outside ``notTheGallery``.
    static func galleryFiles(_ folder: String) throws -> Set<String> {
        let manager = FileManager.default
        var files: Set<String> = []
        var pending = [""]
        while let relative = pending.popLast() {
            for name in try manager.contentsOfDirectory(atPath: folder + "/" + relative) {
                let path = relative.isEmpty ? name : relative + "/" + name
                if relative.isEmpty && notTheGallery.contains(name) { continue }
                var isFolder: ObjCBool = false
                _ = manager.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder)
                if isFolder.boolValue { pending.append(path) } else { files.insert(path) }
            }
        }
        return files
    }

    /// The manifest's bytes with the value of its `"generated"` field (its first line) emptied.
    static func withoutGeneratedTime(_ manifest: Data) -> Data {
        var text = String(decoding: manifest, as: UTF8.self)
        if let key = text.range(of: "\"generated\" : \""), let end = text[key.upperBound...].firstIndex(of: "\"") {
            text.removeSubrange(key.upperBound..<end)
        }
        return Data(text.utf8)
    }
}
