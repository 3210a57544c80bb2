import Foundation
import GalleryTestSupport
import Testing

/// `--resize-mode fixed --image-size WIDTHxHEIGHT`: every success is exactly that size (the photos of the
/// fixture are landscape, portrait, grey and with alpha), as pyarrow and PIL read it; a WxH size with
/// another mode is refused by name.
@Suite struct DatasetFixedResizeTests {
    @Test func everyImageIsExactlyTheSizeAsked() async throws {
        let fixture = try DatasetFixture(count: 40)
        let list = try fixture.writeCSV()
        let out = fixture.work.file("out")
        let r = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--output-format", "webdataset",
                                          "--output-folder", out, "--resize-mode", "fixed", "--image-size", "200x120", "--quiet"]
                                         + DatasetFixture.options)
        try #require(r.exitCode == 0, "\(r.stderrText)")
        let check = #"""
        import sys, glob, io, json, tarfile
        from PIL import Image
        sizes = set()
        for p in glob.glob(sys.argv[1] + "/*.tar"):
            with tarfile.open(p) as tf:
                for m in tf.getmembers():
                    if m.name.endswith(".jpg"): sizes.add(Image.open(io.BytesIO(tf.extractfile(m).read())).size)
        print(json.dumps(sorted(sizes)))
        """#
        let c = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", check, out]), timeout: 60)
        #expect(c.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "[[200, 120]]", "\(c.stdoutText) \(c.stderrText)")
        let rows = DatasetCLI.rows(try await DatasetCLI.read(out)).values.filter { $0["status"] as? String == "success" }
        let expected = fixture.rows.filter { $0.status == "success" }.count
        #expect(rows.count == expected && expected > 0 && rows.allSatisfy { $0["width"] as? Int == 200 && $0["height"] as? Int == 120 }, "\(rows.count) successes")

        let refused = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--output-folder", fixture.work.file("no"),
                                                "--image-size", "200x120"])
        #expect(refused.exitCode != 0 && refused.stderrText.contains("needs --resize-mode fixed"), "\(refused.stderrText)")
    }
}
