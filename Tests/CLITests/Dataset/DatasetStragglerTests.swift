import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// Stragglers end on time: a body dripping slower than --min-speed fails after about one --timeout window, a
/// steady but slow one by --download-deadline (when its speed shows it cannot finish in time), one over --max-image-bytes as soon as it passes the cap; the run
/// ends within the deadline plus a few seconds of its last row starting, instead of waiting for the slowest body.
@Suite struct DatasetStragglerTests {
    /// A photo of a few hundred KB or more (a demo photograph as a high-quality JPEG).
    static func bigPhoto() throws -> [UInt8] {
        let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path + "/Sources/GalleryDemo/Resources/demo-photos/evening-boats.jpg"
        let bitmap = try ImageDecoder.decode(fileAt: demo).bitmap
        return try ImageEncoder.encodeJPEG(bitmap, quality: 97)
    }

    /// The command's result, its rows, and how long its one shard took by its own clock (`_stats.json`'s
    /// duration: what the test process sees would count the waits of other tests beside it).
    func run(_ fixture: DatasetFixture, _ extra: [String]) async throws -> (ProcessResult, [String: [String: Any]], Double) {
        let list = try fixture.writeCSV()
        let out = fixture.work.file("out-\(UUID().uuidString)")
        let result = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--output-format", "webdataset",
                                               "--output-folder", out, "--quiet", "--timeout", "2"] + DatasetFixture.options + extra)
        let dataset = try await DatasetCLI.read(out)
        let stats = (dataset["stats"] as? [String: [String: Any]])?["00000"]
        let took = (stats?["duration"] as? Double) ?? .infinity
        return (result, DatasetCLI.rows(dataset), took)
    }

    @Test func aDripAndAnOversizedBodyEndLongBeforeTheDeadline() async throws {
        var fixture = try DatasetFixture(count: 20)
        let photo = try Self.bigPhoto()
        try #require(photo.count > 100_000, "the photo is \(photo.count) bytes")
        fixture.server.route("/drip.jpg") { _, _ in .file(photo, contentType: "image/jpeg").trickle(bytesPerSecond: 300) }
        fixture.server.route("/huge.jpg") { _, _ in .file(photo + photo + photo, contentType: "image/jpeg").withoutContentLength() }
        fixture.rows[0].url = fixture.server.url("/drip.jpg")
        fixture.rows[1].url = fixture.server.url("/huge.jpg")
        // The default deadline (60 s) is far; the default --min-speed (1024 bytes a second) ends the drip.
        let (result, rows, took) = try await run(fixture, ["--max-image-bytes", String(photo.count * 2)])
        #expect(result.exitCode == 0, "\(result.stderrText)")
        #expect(rows["0000000"]?["error_message"] as? String == "timed out", "\(rows["0000000"] ?? [:])")
        let huge = rows["0000001"]?["error_message"] as? String ?? ""
        #expect(huge.contains("\(photo.count * 2)"), "the cap is named: \(huge)")
        #expect(rows["0000002"]?["status"] as? String == "success")
        #expect(took < 20, "the shard took \(took) s")
    }

    @Test func aSteadySlowBodyEndsAtTheDeadline() async throws {
        var fixture = try DatasetFixture(count: 20)
        let photo = try Self.bigPhoto()
        // 4 KB a second beats --min-speed, but the whole body would take ~50 s: it ends once its speed shows
        // that (after one --timeout window), or at the deadline at the latest.
        fixture.server.route("/slow.jpg") { _, _ in .file(photo, contentType: "image/jpeg").trickle(bytesPerSecond: 4_000) }
        fixture.rows[0].url = fixture.server.url("/slow.jpg")
        let (result, rows, took) = try await run(fixture, ["--download-deadline", "6"])
        #expect(result.exitCode == 0, "\(result.stderrText)")
        #expect(rows["0000000"]?["error_message"] as? String == "timed out", "\(rows["0000000"] ?? [:])")
        #expect(rows.count == 20)
        #expect(took < 6 + 5, "the shard took \(took) s with a 6 s deadline")
    }

    @Test func badValuesAreRefusedNamingTheOption() async throws {
        let fixture = try DatasetFixture(count: 1)
        let list = try fixture.writeCSV()
        for (option, value) in [("--max-image-bytes", "0"), ("--min-speed", "-1"), ("--download-deadline", "0")] {
            let result = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--output-folder",
                                                   fixture.work.file("o"), option, value])
            #expect(result.exitCode == 2, "\(option) \(value): \(result.stderrText)")
            #expect(result.stderrText.contains(option), "\(result.stderrText)")
        }
    }
}

/// The run says why rows failed: a breakdown by class at the end, and a hint (also while the run goes on)
/// when one class is most of the failures and an option can change it.
@Suite struct DatasetFailureClassTests {
    @Test func aDominantClassIsNamedWithWhatToDo() async throws {
        var fixture = try DatasetFixture(count: 40)
        fixture.server.route("/stall.jpg") { _, _ in .status(200, text: "late").stallBeforeHeaders(seconds: 20) }
        for i in 0..<30 { fixture.rows[i].url = fixture.server.url("/stall.jpg?\(i)") }
        let list = try fixture.writeCSV()
        let result = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--output-folder",
                                               fixture.work.file("out"), "--timeout", "1", "--progress", "none"]
                                              + DatasetFixture.options)
        #expect(result.exitCode == 0, "\(result.stderrText)")
        #expect(result.stderrText.contains("failures by class: timed out 30 ("), "\(result.stderrText)")
        #expect(result.stderrText.contains("hint: "), "\(result.stderrText)")
        #expect(result.stderrText.contains("of failures are 'timed out': raise --timeout"), "\(result.stderrText)")
        #expect(result.stderrText.components(separatedBy: "warning: ").count == 2, "warned once while running: \(result.stderrText)")
    }
}
