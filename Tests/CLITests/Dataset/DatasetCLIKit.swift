import Foundation
import GalleryImaging
import GallerySync
import GalleryTestSupport

/// A loopback catalogue for `fetch-gallery dataset` (and img2dataset beside it): real photographs from the
/// corpus under /p/N.jpg with captions and extra columns, and rows that must fail, each for a known reason.
struct DatasetFixture {
    let server = try! FaultServer()
    let work: TempDirectory
    /// (url, caption, extra columns, expected status, expected error message)
    var rows: [(url: String, caption: String, n: Int, tag: String, status: String, error: String?)] = []

    static let photoNames = ["libjpeg-turbo/testorig.jpg", "libjpeg-turbo/testimgint.jpg", "derived/testorig-progressive.jpg",
                             "derived/testorig-grayscale.jpg", "png-suite/basn2c08.png", "png-suite/basn6a08.png"]
        + (0...8).map { "exif-orientation/Landscape_\($0).jpg" } + (0...8).map { "exif-orientation/Portrait_\($0).jpg" }

    /// `count` rows: about one in ten fails (404, not an image, too small, too elongated, X-Robots-Tag noai).
    init(count: Int) throws {
        work = try TempDirectory(prefix: "dataset-cli")
        let photos = try Self.photoNames.map { try Corpus.bytes($0) }
        for (i, bytes) in photos.enumerated() {
            server.route("/p/\(i).img") { _, _ in .file(bytes, contentType: "image/jpeg") }
        }
        let tiny = try ImageEncoder.encodePNG(Bitmap(width: 8, height: 8, format: .rgb8))
        server.route("/tiny.png") { _, _ in .file(tiny, contentType: "image/png") }
        let long = try ImageEncoder.encodeJPEG(Bitmap(width: 400, height: 20, format: .gray8), quality: 80)
        server.route("/long.jpg") { _, _ in .file(long, contentType: "image/jpeg") }
        server.route("/noai.jpg") { _, _ in .status(200, headers: ["X-Robots-Tag": "noindex, noai"], body: photos[0]) }
        server.route("/other-bot.jpg") { _, _ in .status(200, headers: ["X-Robots-Tag": "otherbot: noai"], body: photos[0]) }
        server.route("/page.html") { _, _ in .status(200, headers: ["Content-Type": "text/html"], text: "<!doctype html><p>not an image</p>") }
        server.route("/missing.jpg") { _, _ in .status(404, text: "no") }
        for i in 0..<count {
            let caption = "photo \(i), \"quoted\""
            switch i % 20 {
            case 3: rows.append((server.url("/missing.jpg?\(i)"), caption, i, "t\(i % 3)", "failed_to_download", "HTTP Error 404: Not Found"))
            case 7: rows.append((server.url("/page.html?\(i)"), caption, i, "t\(i % 3)", "failed_to_resize", "Image decoding error"))
            case 11: rows.append((server.url("/tiny.png?\(i)"), caption, i, "t\(i % 3)", "failed_to_resize", "image too small"))
            case 13: rows.append((server.url("/long.jpg?\(i)"), caption, i, "t\(i % 3)", "failed_to_resize", "aspect ratio too large"))
            case 17: rows.append((server.url("/noai.jpg?\(i)"), caption, i, "t\(i % 3)", "opted_out", "opted_out: X-Robots-Tag noindex"))
            case 19: rows.append((server.url("/other-bot.jpg?\(i)"), caption, i, "t\(i % 3)", "success", nil))
            default: rows.append((server.url("/p/\(i % photos.count).img"), caption, i, "t\(i % 3)", "success", nil))
            }
        }
    }

    /// The rows as a CSV list with columns url, text, n, tag.
    func writeCSV(_ name: String = "list.csv", separator: String = ",") throws -> String {
        func quote(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var text = ["url", "text", "n", "tag"].joined(separator: separator) + "\n"
        for r in rows { text += [r.url, quote(r.caption), String(r.n), r.tag].joined(separator: separator) + "\n" }
        return try work.write(Array(text.utf8), to: name)
    }

    func writeJSONL(_ name: String = "list.jsonl") throws -> String {
        var text = ""
        for r in rows {
            let object: [String: Any] = ["url": r.url, "text": r.caption, "n": r.n, "tag": r.tag]
            text += String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        return try work.write(Array(text.utf8), to: name)
    }

    /// The common options: the filters that make the failing rows fail, captions and the extra columns.
    static let options = ["--caption-col", "text", "--save-additional-columns", "n,tag", "--min-image-size", "16",
                          "--max-aspect-ratio", "5", "--number-sample-per-shard", "100"]
}

enum DatasetCLI {
    static func run(_ arguments: [String], timeout: Double = 180) async throws -> ProcessResult {
        try await DownloadCLI.run(["dataset"] + arguments, timeout: timeout)
    }

    /// Reads a dataset folder with pyarrow and webdataset (the readers users run) and returns what they saw:
    /// {"parquet": {shard: {"schema": [[name, type]], "rows": [...]}}, "stats": {...}, "tars": {shard: [members]},
    ///  "wds": [[key, has image, caption, json key]]}
    static func read(_ folder: String) async throws -> [String: Any] {
        let script = #"""
        import json, sys, glob, os, tarfile
        import pyarrow.parquet as pq
        out = {"parquet": {}, "stats": {}, "tars": {}, "wds": [], "files": {}}
        folder = sys.argv[1]
        for p in sorted(glob.glob(folder + "/*.parquet")):
            t = pq.read_table(p)
            name = os.path.basename(p)[:-8]
            out["parquet"][name] = {"schema": [[f.name, str(f.type)] for f in t.schema],
                                    "rows": [{k: (v if not isinstance(v, bytes) else len(v)) for k, v in r.items()} for r in t.to_pylist()]}
        for p in sorted(glob.glob(folder + "/*_stats.json")):
            out["stats"][os.path.basename(p)[:5]] = json.load(open(p))
        tars = sorted(glob.glob(folder + "/*.tar"))
        for p in tars:
            with tarfile.open(p) as tf:
                out["tars"][os.path.basename(p)[:-4]] = tf.getnames()
        for d in sorted(glob.glob(folder + "/[0-9]*/")):
            out["files"][os.path.basename(d.rstrip("/"))] = sorted(os.listdir(d))
        if tars:
            import webdataset as wds
            for s in wds.WebDataset(tars, shardshuffle=False).decode("pil"):
                out["wds"].append([s["__key__"], "jpg" in s and s["jpg"].size[0] > 0, s.get("txt"), s["json"]["key"]])
        print(json.dumps(out))
        """#
        let r = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", script, folder]), timeout: 120)
        guard r.exitCode == 0, let object = try JSONSerialization.jsonObject(with: Data(r.stdoutText.utf8)) as? [String: Any] else {
            throw DatasetCLIError.reader(r.stderrText)
        }
        return object
    }

    /// md5 of bytes with coreutils, as hashlib's hexdigest gives it.
    static func md5(_ bytes: [UInt8], in dir: TempDirectory) async throws -> String {
        let path = try dir.write(bytes, to: "md5-\(UUID().uuidString)")
        let r = await DownloadCLI.wait(try ProcessRunner("md5sum", [path]), timeout: 30)
        return String(r.stdoutText.prefix(32))
    }

    /// Every metadata row of every shard, by key.
    static func rows(_ dataset: [String: Any]) -> [String: [String: Any]] {
        var byKey: [String: [String: Any]] = [:]
        for (_, shard) in dataset["parquet"] as? [String: [String: Any]] ?? [:] {
            for row in shard["rows"] as? [[String: Any]] ?? [] { byKey[row["key"] as? String ?? "?"] = row }
        }
        return byKey
    }
}

struct DatasetCLIError: Error, CustomStringConvertible {
    let description: String
    static func reader(_ text: String) -> Self { Self(description: "dataset reader failed: \(text)") }
}
