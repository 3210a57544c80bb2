import Foundation
import GalleryTestSupport
import Testing

/// The `fetch_gallery` Python module (python/ in the repository), installed with pip from the clone as a
/// user would, running a copy of DataComp's download_upstream.py call with one import changed: the dataset
/// it writes, and its errors (an unknown keyword, a failing command, a missing binary).
@Suite(.serialized) struct DatasetPythonDropInTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// download_upstream.py's img2dataset.download(...) call, arguments unchanged (its paths and counts
    /// from argv), then the checks on what was written.
    static let dataComp = #"""
    import sys, os, glob, json, tarfile
    from fetch_gallery import download   # DataComp: import img2dataset; img2dataset.download(...)
    metadata_dir, shard_dir = sys.argv[1], sys.argv[2]
    bbox_col = 'face_bboxes'
    download(
        url_list=str(metadata_dir),
        image_size=512,
        output_folder=str(shard_dir),
        processes_count=2,
        thread_count=16,
        resize_mode='keep_ratio_largest',
        resize_only_if_bigger=True,
        output_format='webdataset',
        input_format='parquet',
        url_col='url',
        caption_col='text',
        bbox_col=bbox_col,
        save_additional_columns=['uid'],
        number_sample_per_shard=10000,
        oom_shard_count=8
    )
    import pyarrow.parquet as pq
    rows = [r for p in sorted(glob.glob(shard_dir + "/*.parquet")) for r in pq.read_table(p).to_pylist()]
    names = sorted(os.listdir(shard_dir))
    members = tarfile.open(shard_dir + "/00000000.tar").getnames()
    print(json.dumps({"names": names, "rows": len(rows), "successes": sum(r["status"] == "success" for r in rows),
                      "columns": sorted(rows[0].keys()), "members": len(members),
                      "boxes": sum(r["face_bboxes"] is not None for r in rows)}))
    """#

    static let errors = #"""
    import sys, json
    import fetch_gallery
    out = {}
    try:
        fetch_gallery.download(url_list="x", image_sise=512)
    except TypeError as e:
        out["unknown"] = str(e)
    try:
        fetch_gallery.download(url_list=sys.argv[1], input_format="parquet", output_folder=sys.argv[2])
    except fetch_gallery.FetchGalleryError as e:
        out["failed"] = str(e)
    out["ours"] = " ".join(fetch_gallery.command_line("x", verify_hash=["sha256", "sha256"], verify_phash="phash", phash_distance=8,
                                                      compute_phash=True, detect_placeholders=False, placeholder_urls=12))
    import os
    os.environ["FETCH_GALLERY_BIN"] = "/nonexistent/fetch-gallery"
    try:
        fetch_gallery.download(url_list="x")
    except fetch_gallery.FetchGalleryError as e:
        out["missing"] = str(e)
    print(json.dumps(out))
    """#

    @Test func dataCompsCallRunsWithOneImportChanged() async throws {
        let work = try TempDirectory(prefix: "dataset-python")
        // From a copy of python/, so the build's leftovers (build/, *.egg-info) stay out of the clone.
        try FileManager.default.copyItem(atPath: Self.repository + "/python", toPath: work.file("python"))
        let install = await DownloadCLI.wait(try ProcessRunner("python3", [
            "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--target", work.file("site"), work.file("python")]), timeout: 180)
        try #require(install.exitCode == 0, "pip install ./python: \(install.stderrText)")

        let server = try FaultServer()
        let photos = try ["libjpeg-turbo/testorig.jpg", "exif-orientation/Landscape_0.jpg", "png-suite/basn6a08.png"].map { try Corpus.bytes($0) }
        for (i, bytes) in photos.enumerated() { server.route("/p/\(i).img") { _, _ in .file(bytes, contentType: "image/jpeg") } }
        // DataComp's metadata: a folder of Parquet files (uid as 32 hex digits, url, text, face_bboxes).
        let make = #"""
        import sys, pyarrow as pa, pyarrow.parquet as pq
        folder, base = sys.argv[1], sys.argv[2]
        schema = pa.schema([("uid", pa.string()), ("url", pa.string()), ("text", pa.string()),
                            ("original_width", pa.int64()), ("face_bboxes", pa.list_(pa.list_(pa.float64())))])
        for part in range(2):
            rows = [{"uid": "%032x" % (part * 1000 + i), "url": f"{base}/p/{i % 3}.img" if i % 10 else f"{base}/gone.jpg",
                     "text": f"photo {i}", "original_width": 640, "face_bboxes": [[0.2, 0.2, 0.4, 0.5]] if i % 2 else []} for i in range(30)]
            pq.write_table(pa.Table.from_pylist(rows, schema=schema), f"{folder}/{part:04d}.parquet")
        """#
        try FileManager.default.createDirectory(atPath: work.file("metadata"), withIntermediateDirectories: true)
        let made = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", make, work.file("metadata"), server.url("")]), timeout: 60)
        try #require(made.exitCode == 0, "\(made.stderrText)")

        let environment = ["PYTHONPATH": work.file("site"), "FETCH_GALLERY_BIN": DownloadCLI.binary]
        let run = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", Self.dataComp, work.file("metadata"), work.file("shards")],
                                                           environment: environment), timeout: 300)
        try #require(run.exitCode == 0, "DataComp's call: \(run.stderrText.suffix(3000))")
        let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdoutText.utf8)) as? [String: Any])
        // Two input files, two shards (img2dataset starts a shard per file), named with 8 digits.
        let names = out["names"] as? [String] ?? []
        #expect(["00000000.tar", "00000000.parquet", "00000000_stats.json", "00000001.tar"].allSatisfy(names.contains), "\(names)")
        #expect(out["rows"] as? Int == 60 && out["successes"] as? Int == 54, "\(out)")
        #expect((out["columns"] as? [String]).map { Set(["uid", "face_bboxes", "caption", "url", "key", "status"]).isSubset(of: $0) } == true, "\(out)")
        #expect(out["members"] as? Int == 27 * 3, "jpg, json, txt per success: \(out)")
        #expect(out["boxes"] as? Int == 60, "\(out)")

        let errors = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", Self.errors, work.file("no-such-folder"), work.file("bad")],
                                                              environment: environment), timeout: 120)
        try #require(errors.exitCode == 0, "\(errors.stderrText)")
        let e = try #require(try JSONSerialization.jsonObject(with: Data(errors.stdoutText.utf8)) as? [String: String])
        #expect(e["unknown"]?.contains("'image_sise'") == true, "\(e)")
        #expect(e["failed"]?.contains("no-such-folder") == true && e["failed"]?.contains("exit status") == true, "\(e)")
        #expect(e["missing"]?.contains("FETCH_GALLERY_BIN") == true, "\(e)")
        // fetch-gallery's own keywords (--verify-phash and the rest) pass on; a flag given False is left out.
        #expect(e["ours"]?.hasSuffix("--verify-hash [sha256,sha256] --verify-phash phash --phash-distance 8 --compute-phash --placeholder-urls 12") == true, "\(e)")
    }
}
