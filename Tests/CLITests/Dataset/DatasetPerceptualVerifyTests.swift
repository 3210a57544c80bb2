import Foundation
import GalleryImaging
import GallerySync
import GalleryTestSupport
import Testing

/// `--verify-phash`: a first run records each photo's pHash (`--compute-phash`); the server then answers the same
/// URLs with copies (re-encoded at another quality, resized, recompressed as WebP), and a second run, reading the
/// first run's metadata with `--verify-hash sha256,sha256 --verify-phash phash`, keeps the copies (`verified_by`
/// phash), the unchanged photos (`verified_by` sha256), and drops a different photo as img2dataset drops it.
@Suite(.serialized) struct DatasetPerceptualVerifyTests {
    /// The repository's real photographs (the demo set and the corpus's camera photos).
    static let photos: [String] = {
        let demo = Corpus.root + "/../../Sources/GalleryDemo/Resources/demo-photos/"
        return ["evening-boats.jpg", "storm-road.jpg", "ladybird.jpg", "forest-path-portrait.jpg"].map { demo + $0 }
            + [Corpus.root + "/libjpeg-turbo/testorig.jpg", Corpus.root + "/exif-orientation/Landscape_1.jpg"]
    }()

    /// The copy of `bytes` a server answers after the photo changed: `kind` q (JPEG quality 50), r (half size,
    /// JPEG 85), w (WebP 70).
    static func copy(_ bytes: [UInt8], kind: String) throws -> [UInt8] {
        let bitmap = try ImageDecoder.decode(bytes, name: "copy").bitmap
        switch kind {
        case "q": return try ImageEncoder.encodeJPEG(bitmap, quality: 50)
        case "r": return try ImageEncoder.encodeJPEG(Resampler(filter: .area).scale(bitmap, width: bitmap.width / 2, height: bitmap.height / 2), quality: 85)
        default: return try ImageEncoder.encodeWebP(bitmap, quality: 70)
        }
    }

    @Test func copiesOfTheSamePhotoAreKeptByTheirPHashAndOthersDropped() async throws {
        let server = try FaultServer()
        let work = try TempDirectory(prefix: "dataset-phash")
        let originals = try Self.photos.map { [UInt8](try #require(FileManager.default.contents(atPath: $0))) }
        let changed = Locked(false)
        // s: unchanged; q, r, w: copies of the photo; x: another photo once changed.
        let kinds = ["s", "q", "r", "w", "x"]
        var text = "url,text\n"
        for (i, original) in originals.enumerated() {
            var copies: [String: [UInt8]] = ["s": original, "x": originals[(i + 1) % originals.count]]
            for kind in ["q", "r", "w"] { copies[kind] = try Self.copy(original, kind: kind) }
            for kind in kinds {
                let now = copies[kind]!
                server.route("/\(kind)/\(i).img") { _, _ in .file(changed.withLock { $0 } ? now : original, contentType: "image/jpeg") }
                text += server.url("/\(kind)/\(i).img") + ",photo \(i) \(kind)\n"
            }
        }
        let list = try work.write(Array(text.utf8), to: "list.csv")
        let first = work.file("first"), second = work.file("second"), theirs = work.file("theirs")
        let r1 = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--caption-col", "text", "--compute-phash",
                                           "--output-format", "parquet", "--output-folder", first, "--quiet"])
        try #require(r1.exitCode == 0, "\(r1.stderrText)")
        let recorded = DatasetCLI.rows(try await DatasetCLI.read(first))
        #expect(recorded.count == originals.count * kinds.count && recorded.values.allSatisfy {
            $0["status"] as? String == "success" && ($0["phash"] as? String)?.count == 16
        }, "first run: \(recorded.values.map { "\($0["status"] ?? "") \($0["phash"] ?? "")" })")

        // The column speaks imagehash's format: each photo's recorded pHash within 4 bits of imagehash.phash of the file.
        let imagehash = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", "import sys, imagehash\nfrom PIL import Image\n"
            + "print(' '.join(str(imagehash.phash(Image.open(p))) for p in sys.argv[1:]))"] + Self.photos), timeout: 120)
        try #require(imagehash.exitCode == 0, "\(imagehash.stderrText)")
        let imagehashes = imagehash.stdoutText.split(separator: " ").map { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines), radix: 16) }
        for (i, hash) in imagehashes.enumerated() {
            let ours = recorded.values.first { $0["caption"] as? String == "photo \(i) s" }?["phash"] as? String
            let distance = hash.flatMap { h in ours.flatMap { UInt64($0, radix: 16) }.map { ($0 ^ h).nonzeroBitCount } }
            #expect(distance.map { $0 <= 4 } == true, "photo \(i): imagehash \(String(describing: hash)), ours \(ours ?? "-")")
        }

        changed.withLock { $0 = true }
        let again = ["--url-list", first + "/00000.parquet", "--input-format", "parquet", "--caption-col", "caption",
                     "--verify-hash", "sha256,sha256", "--output-format", "parquet"]
        let r2 = try await DatasetCLI.run(again + ["--verify-phash", "phash", "--output-folder", second, "--quiet"])
        try #require(r2.exitCode == 0, "\(r2.stderrText)")
        let data = try await DatasetCLI.read(second)
        let rows = DatasetCLI.rows(data)
        var seen: [String: [String]] = [:]
        for row in rows.values {
            let kind = String((row["caption"] as? String ?? "? ?").split(separator: " ").last ?? "?")
            seen[kind, default: []].append("\(row["status"] ?? "") \(row["error_message"] ?? "") \(row["verified_by"] ?? "")")
        }
        let n = originals.count
        #expect(seen["s"] == Array(repeating: "success <null> sha256", count: n), "unchanged: \(seen["s"] ?? [])")
        for kind in ["q", "r", "w"] {
            #expect(seen[kind] == Array(repeating: "success <null> phash", count: n), "copies \(kind): \(seen[kind] ?? [])")
        }
        #expect(seen["x"] == Array(repeating: "failed_to_download hash mismatch <null>", count: n), "another photo: \(seen["x"] ?? [])")
        let schema = ((data["parquet"] as? [String: [String: Any]])?["00000"]?["schema"] as? [[String]])?.map { $0[0] } ?? []
        // Ours after img2dataset's (the parquet format's image column comes last, as the writer adds it).
        #expect(schema.filter { $0 != "jpg" }.suffix(2) == ["exif", "verified_by"] && schema.prefix(4) == ["caption", "sha256", "phash", "url"], "\(schema)")

        // img2dataset on the same metadata: the rows whose bytes match, and the other photo, as it has them.
        let i2d = await DownloadCLI.wait(try ProcessRunner("python3", ["-m", "img2dataset.main", "--url_list", first + "/00000.parquet",
            "--input_format", "parquet", "--caption_col", "caption", "--verify_hash", "['sha256','sha256']", "--output_format", "parquet",
            "--output_folder", theirs, "--processes_count", "1", "--thread_count", "8"]), timeout: 300)
        try #require(i2d.exitCode == 0, "img2dataset: \(i2d.stderrText.suffix(2000))")
        let reference = DatasetCLI.rows(try await DatasetCLI.read(theirs))
        #expect(reference.count == rows.count)
        for (key, row) in reference {
            let ours = rows[key] ?? [:]
            let kind = String((row["caption"] as? String ?? "? ?").split(separator: " ").last ?? "?")
            let same = "\(row["status"] ?? "") \(row["error_message"] ?? "")" == "\(ours["status"] ?? "") \(ours["error_message"] ?? "")"
            // img2dataset drops the copies too: the one difference this option makes.
            #expect(same == !["q", "r", "w"].contains(kind), "\(key) \(kind): img2dataset \(row["status"] ?? "") \(row["error_message"] ?? ""), ours \(ours["status"] ?? "") \(ours["error_message"] ?? "")")
        }
    }

    /// Refused options name the flag; without `--verify-phash` the metadata has img2dataset's columns only.
    @Test func optionsAreCheckedAndTheColumnsOnlyAddedWhenAsked() async throws {
        let work = try TempDirectory(prefix: "dataset-phash-opts")
        let list = try work.write(Array("url,p\nhttp://127.0.0.1:9/x.jpg,0\n".utf8), to: "l.csv")
        let alone = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--verify-phash", "p", "--output-folder", work.file("a")])
        #expect(alone.exitCode == 2 && alone.stderrText.contains("--verify-phash p needs --verify-hash"), "\(alone.stderrText)")
        let far = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--compute-phash", "--phash-distance", "65", "--output-folder", work.file("b")])
        #expect(far.exitCode == 2 && far.stderrText.contains("--phash-distance must be between 0 and 64"), "\(far.stderrText)")
        let taken = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--compute-phash", "--save-additional-columns", "phash",
                                              "--output-folder", work.file("c")])
        #expect(taken.exitCode == 2 && taken.stderrText.contains("--save-additional-columns phash"), "\(taken.stderrText)")
        let plain = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--output-folder", work.file("d"), "--quiet", "--timeout", "2"])
        #expect(plain.exitCode == 0, "\(plain.stderrText)")
        let schema = ((try await DatasetCLI.read(work.file("d"))["parquet"] as? [String: [String: Any]])?["00000"]?["schema"] as? [[String]])?.map { $0[0] }
        #expect(schema == ["url", "key", "status", "error_message", "width", "height", "original_width", "original_height", "exif", "sha256"], "\(schema ?? [])")
    }
}
