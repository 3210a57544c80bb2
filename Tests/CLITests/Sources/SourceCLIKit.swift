import Foundation
import GalleryTestSupport
import Testing

/// Runs the built `fetch-gallery` against a fake photo service and reads what it wrote.
enum SourceCLIKit {
    static let fast = ["--workers", "2", "--sizes", "64", "--progress", "json"]

    /// Runs `fetch-gallery ARGS --out OUT` with `environment` added.
    static func run(_ arguments: [String], out: String, environment: [String: String] = [:],
                    timeout: Double = 90) throws -> ProcessResult {
        try ProcessRunner.run(GalleryCLIKit.binary, arguments + ["--out", out] + fast, environment: environment, timeout: timeout)
    }

    /// Every regular file under `folder`, as bytes, by relative path.
    static func files(under folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return out }
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue,
               let data = FileManager.default.contents(atPath: folder + "/" + path) {
                out[path] = data
            }
        }
        return out
    }

    /// Fails the test when `secret` appears in any file under `folder` (gallery, manifest, journal, pages)
    /// or in the process's output.
    static func expectNowhere(_ secret: String, in folder: String, _ result: ProcessResult,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let needle = Data(secret.utf8)
        for (path, data) in files(under: folder) {
            #expect(data.range(of: needle) == nil, "the key appears in \(path)", sourceLocation: sourceLocation)
        }
        #expect(!result.stdoutText.contains(secret), "the key appears on stdout", sourceLocation: sourceLocation)
        #expect(!result.stderrText.contains(secret), "the key appears on stderr", sourceLocation: sourceLocation)
    }

    /// Photos of the manifest by `source_id` (or `id` as text when there is none).
    static func photosBySourceID(_ out: String) throws -> [String: [String: Any]] {
        var byID: [String: [String: Any]] = [:]
        for photo in try GalleryCLIKit.manifestPhotos(out) {
            let id = photo["source_id"] as? String ?? (photo["id"] as? Int).map(String.init) ?? "?"
            byID[id] = photo
        }
        return byID
    }

    /// The `photo` events of a JSON progress stream that finished with bytes downloaded.
    static func bytesDownloaded(_ result: ProcessResult) -> Int {
        result.stdoutText.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["event"] as? String == "photo" }.reduce(0) { $0 + ($1["bytes"] as? Int ?? 0) }
    }

    /// Checks each listed photo's original is byte for byte the served image.
    static func expectOriginals(_ out: String, _ photos: [ServicePhoto], sourceID: (ServicePhoto) -> String,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let manifest = try photosBySourceID(out)
        for photo in photos {
            let entry = manifest[sourceID(photo)]
            #expect(entry?["status"] as? String == "ok", "photo \(photo.id): \(entry ?? [:])", sourceLocation: sourceLocation)
            let original = entry?["original"] as? String ?? "-"
            #expect(FileManager.default.contents(atPath: out + "/" + original) == Data(photo.image.bytes),
                    "photo \(photo.id)", sourceLocation: sourceLocation)
        }
    }
}
