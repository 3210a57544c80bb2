import Foundation
import GalleryTestSupport
import Testing

/// img2dataset 1.47 and `fetch-gallery dataset` on the same URL list from the same loopback server, with the
/// same command line (ours given img2dataset's underscores): the same keys, statuses, error messages, metadata
/// columns and types, tar member names, image sizes within one pixel; prints the PSNR between the two tools' images.
@Suite(.serialized) struct DatasetDifferentialTests {
    static let compare = #"""
    import json, sys, glob, os, tarfile, io
    import numpy as np, pyarrow.parquet as pq
    from PIL import Image
    def load(folder):
        rows, schema, members, images = {}, None, {}, {}
        for p in sorted(glob.glob(folder + "/*.parquet")):
            t = pq.read_table(p)
            schema = [[f.name, str(f.type)] for f in t.schema]
            for r in t.to_pylist(): rows[r["key"]] = r
        for p in sorted(glob.glob(folder + "/*.tar")):
            with tarfile.open(p) as tf:
                for m in tf.getmembers():
                    members[m.name] = True
                    if m.name.endswith(".jpg"): images[m.name[:-4]] = np.asarray(Image.open(io.BytesIO(tf.extractfile(m).read())).convert("RGB"), dtype=np.float64)
        # Our one deliberate difference: an AI opt-out is its own status ("opted_out: X-Robots-Tag noai"), counted
        # as opted_out in the stats; img2dataset calls the same row failed_to_download with its fixed message.
        for r in rows.values():
            if r.get("status") == "opted_out" and str(r.get("error_message")).startswith("opted_out: X-Robots-Tag "):
                r["status"], r["error_message"] = "failed_to_download", "Use of image disallowed by X-Robots-Tag directive"
        stats = sorted([k for k in json.load(open(p)).keys() if k != "opted_out"] for p in glob.glob(folder + "/*_stats.json"))
        return rows, schema, members, images, stats
    a, b = load(sys.argv[1]), load(sys.argv[2])
    out = {"keys": [sorted(a[0]) == sorted(b[0]), len(a[0]), len(b[0])], "schema": [a[1], b[1]],
           "members": [sorted(a[2]) == sorted(b[2]), len(a[2]), len(b[2]), sorted(set(a[2]) ^ set(b[2]))[:6]],
           "stats_keys": [a[4][:1], b[4][:1]], "diffs": [], "sizes": [], "psnr": []}
    for k in sorted(a[0]):
        ra, rb = a[0][k], b[0].get(k, {})
        for col in ["url", "caption", "n", "tag", "status", "error_message", "original_width", "original_height"]:
            if ra.get(col) != rb.get(col): out["diffs"].append([k, col, ra.get(col), rb.get(col)])
        if ra["status"] == "success" and rb.get("status") == "success":
            out["sizes"].append(max(abs(ra["width"] - rb["width"]), abs(ra["height"] - rb["height"])))
            ia, ib = a[3].get(k), b[3].get(k)
            if ia is not None and ib is not None and ia.shape == ib.shape:
                mse = ((ia - ib) ** 2).mean()
                out["psnr"].append(99.0 if mse == 0 else float(10 * np.log10(255 ** 2 / mse)))
    print(json.dumps(out))
    """#

    @Test func theSameDatasetAsImg2datasetOnTheSameInput() async throws {
        let fixture = try DatasetFixture(count: 200)
        let list = try fixture.writeCSV()
        let theirs = fixture.work.file("img2dataset"), ours = fixture.work.file("ours")
        let common = ["--url_list", list, "--input_format", "csv", "--caption_col", "text", "--save_additional_columns", "['n','tag']",
                      "--min_image_size", "16", "--max_aspect_ratio", "5", "--number_sample_per_shard", "100",
                      "--output_format", "webdataset", "--resize_mode", "keep_ratio", "--processes_count", "1", "--thread_count", "16"]
        let i2d = await DownloadCLI.wait(try ProcessRunner("python3", ["-m", "img2dataset.main"] + common + ["--output_folder", theirs]), timeout: 300)
        try #require(i2d.exitCode == 0, "img2dataset: \(i2d.stderrText.suffix(2000))")
        let r = try await DatasetCLI.run(common + ["--output_folder", ours, "--quiet"])
        try #require(r.exitCode == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("note: --processes-count") && r.stderrText.contains("note: --thread-count"))
        let c = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", Self.compare, theirs, ours]), timeout: 120)
        try #require(c.exitCode == 0, "\(c.stderrText)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(c.stdoutText.utf8)) as? [String: Any])
        let keys = result["keys"] as? [Any] ?? []
        #expect(keys.first as? Bool == true && keys.dropFirst().allSatisfy { $0 as? Int == 200 }, "keys: \(keys)")
        let schema = result["schema"] as? [[[String]]] ?? []
        #expect(schema.count == 2 && schema[0] == schema[1], "schemas differ:\n\(schema.first ?? [])\n\(schema.last ?? [])")
        #expect((result["members"] as? [Any])?.first as? Bool == true, "tar members: \(result["members"] ?? "")")
        #expect((result["stats_keys"] as? [Any]).map { "\($0[0])" == "\($0[1])" } == true)
        #expect((result["diffs"] as? [Any] ?? []).isEmpty, "rows differ: \(result["diffs"] ?? "")")
        let sizes = result["sizes"] as? [Int] ?? []
        #expect(!sizes.isEmpty && sizes.allSatisfy { $0 <= 1 }, "size differences: \(sizes)")
        let psnr = result["psnr"] as? [Double] ?? []
        #expect(!psnr.isEmpty)
        let mean = psnr.reduce(0, +) / Double(max(1, psnr.count))
        print("dataset differential: \(psnr.count) images, PSNR ours vs img2dataset: mean \(String(format: "%.1f", mean)) dB, "
              + "min \(String(format: "%.1f", psnr.min() ?? 0)) dB")
        #expect((psnr.min() ?? 0) >= 28, "PSNR min \(psnr.min() ?? 0)")
    }
}
