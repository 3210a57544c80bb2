import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// `--detect-placeholders` against loopback servers: one host answering 15 dead links with the same "image not
/// found" picture, beside a photo hot-linked 15 times at one URL, the same photo on 12 hosts, and photos of their own.
@Suite(.serialized) struct DatasetPlaceholderTests {
    /// A "not found" picture as sites serve it: a grey card with a darker frame, PNG.
    static func notFound() throws -> [UInt8] {
        let bitmap = Bitmap(width: 240, height: 180, format: .rgb8) { out in
            for y in 0..<180 {
                for x in 0..<240 {
                    let frame = x < 12 || x >= 228 || y < 12 || y >= 168 || (abs(x - 120) < 40 && abs(y - 90) < 6)
                    for c in 0..<3 { out[(y * 240 + x) * 3 + c] = frame ? 120 : 220 }
                }
            }
        }
        return try ImageEncoder.encodePNG(bitmap)
    }

    struct Fixture {
        let server = try! FaultServer()
        let mirrors = (0..<12).map { _ in try! FaultServer() }
        let work: TempDirectory
        var list = "url,text\n"

        init() throws {
            work = try TempDirectory(prefix: "dataset-placeholder")
            let demo = Corpus.root + "/../../Sources/GalleryDemo/Resources/demo-photos/"
            let photos = try ["evening-boats.jpg", "storm-road.jpg", "ladybird.jpg", "water-drop.jpg"].map {
                [UInt8](try #require(FileManager.default.contents(atPath: demo + $0)))
            }
            let card = try DatasetPlaceholderTests.notFound()
            server.route("/gone") { _, _ in .file(card, contentType: "image/png") }
            for i in 0..<15 {
                // Dead links: every path answers the card (as a site's 404 handler does, with status 200).
                server.route("/photos/\(i).jpg") { _, _ in .file(card, contentType: "image/png") }
                list += server.url("/photos/\(i).jpg") + ",dead\n"
                list += server.url("/hot.jpg") + ",hot\n"
            }
            server.route("/hot.jpg") { _, _ in .file(photos[0], contentType: "image/jpeg") }
            for (i, photo) in photos.enumerated() {
                server.route("/own/\(i).jpg") { _, _ in .file(photo, contentType: "image/jpeg") }
                list += server.url("/own/\(i).jpg") + ",own\n"
            }
            for mirror in mirrors {
                mirror.route("/same.jpg") { _, _ in .file(photos[1], contentType: "image/jpeg") }
                list += mirror.url("/same.jpg") + ",mirror\n"
            }
        }

        /// Status and message of every row, by its caption.
        func run(_ extra: [String], out: String? = nil) async throws -> (byKind: [String: [String]], stats: [String: Any], samples: [String]) {
            let input = try work.write(Array(list.utf8), to: "list.csv")
            let out = out ?? work.file("out-\(UUID().uuidString)")
            let r = try await DatasetCLI.run(["--url-list", input, "--input-format", "csv", "--caption-col", "text",
                                              "--output-format", "webdataset", "--output-folder", out, "--quiet"] + extra)
            try #require(r.exitCode == 0, "\(r.stderrText)")
            let data = try await DatasetCLI.read(out)
            var byKind: [String: [String]] = [:]
            for row in DatasetCLI.rows(data).values {
                byKind[row["caption"] as? String ?? "?", default: []].append("\(row["status"] ?? "") \(row["error_message"] ?? "")")
            }
            let samples = (data["wds"] as? [[Any]] ?? []).map { "\($0[2])" }
            return (byKind.mapValues { $0.sorted() }, (data["stats"] as? [String: Any])?["00000"] as? [String: Any] ?? [:], samples)
        }
    }

    @Test func deadLinksOfOneHostAreFlaggedAndHotLinkedPhotosKept() async throws {
        let fixture = try Fixture()
        let out = fixture.work.file("out")
        let (rows, stats, samples) = try await fixture.run(["--detect-placeholders"], out: out)
        // The first dead link's row was written before a second URL served the card; the 9 after it were held
        // until the shard closed, and every later one failed at once.
        let flagged = rows["dead"]?.filter { $0 == "failed_to_download placeholder image" }.count
        #expect(flagged == 14 && rows["dead"]?.filter { $0 == "success <null>" }.count == 1, "dead links: \(rows["dead"] ?? [])")
        #expect(rows["hot"] == Array(repeating: "success <null>", count: 15), "hot-linked: \(rows["hot"] ?? [])")
        #expect(rows["mirror"] == Array(repeating: "success <null>", count: 12), "same photo on 12 hosts: \(rows["mirror"] ?? [])")
        #expect(rows["own"] == Array(repeating: "success <null>", count: 4))
        #expect((stats["status_dict"] as? [String: Int])?["placeholder image"] == 14 && stats["failed_to_download"] as? Int == 14, "\(stats)")

        #expect(samples.filter { $0 == "dead" }.count == 1 && samples.count == 15 + 4 + 12 + 1)
        // The folder keeps the placeholder found; --retry-failed marks the first dead link's row too, and drops its image.
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/placeholders.json"))) as? [String: Any]
        let listed = record?["placeholders"] as? [[String: String]]
        #expect(listed?.count == 1 && listed?.first?["host"] == fixture.server.baseURL && record?["placeholder_urls"] as? Int == 10, "\(record ?? [:])")
        let retried = try await fixture.run(["--detect-placeholders", "--retry-failed"], out: out)
        #expect(retried.byKind["dead"] == Array(repeating: "failed_to_download placeholder image", count: 15), "after --retry-failed: \(retried.byKind["dead"] ?? [])")
        #expect(retried.byKind["hot"] == rows["hot"] && retried.byKind["mirror"] == rows["mirror"] && retried.byKind["own"] == rows["own"])
        #expect(!retried.samples.contains("dead") && retried.samples.count == 15 + 4 + 12, "\(retried.samples)")

        // Each process of a --shard K/N run writes a file of its own; a later run reads them all.
        let sharded = fixture.work.file("sharded")
        let part = try await fixture.run(["--detect-placeholders", "--shard", "0/2"], out: sharded)
        #expect(part.byKind["dead"]?.filter { $0 == "success <null>" }.count == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: sharded).filter { $0.hasPrefix("placeholders") }
        #expect(files == ["placeholders-0-of-2.json"], "\(files)")
        let whole = try await fixture.run(["--detect-placeholders", "--retry-failed"], out: sharded)
        #expect(whole.byKind["dead"] == Array(repeating: "failed_to_download placeholder image", count: 15), "\(whole.byKind["dead"] ?? [])")

        // A damaged list stops the run, naming the file.
        try Array("{\"placeholders\": 3}".utf8).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: out + "/placeholders.json")) }
        let input = try fixture.work.write(Array(fixture.list.utf8), to: "list.csv")
        let damaged = try await DatasetCLI.run(["--url-list", input, "--input-format", "csv", "--output-format", "webdataset",
                                                "--output-folder", out, "--detect-placeholders", "--retry-failed"])
        #expect(damaged.exitCode == 1 && damaged.stderrText.contains("placeholders.json is not a placeholder list"), "\(damaged.stderrText)")

        // Off by default, and each dead link kept as img2dataset keeps it; a higher threshold than the host reached.
        let plain = try await fixture.run([])
        #expect(plain.byKind["dead"] == Array(repeating: "success <null>", count: 15))
        let high = try await fixture.run(["--detect-placeholders", "--placeholder-urls", "16"])
        #expect(high.byKind["dead"] == Array(repeating: "success <null>", count: 15))
    }
}
