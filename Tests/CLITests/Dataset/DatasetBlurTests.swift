import Foundation
import GalleryTestSupport
import Testing

/// `--bbox-col` against img2dataset 1.47 (with albumentations 1.4.24) on DataComp-shaped Parquet input (`uid`
/// as 32 hex digits, `face_bboxes` as lists of float lists, with empty lists, nulls, boxes at the edges and
/// boxes covering most of the picture), DataComp's options: the same blur inside the boxes (PSNR), pixels
/// beyond the blur's reach untouched (against our own run without boxes, in PNG so nothing else moves them),
/// the box column kept in the metadata as img2dataset keeps it (`list<list<double>>`, the `.json` member).
@Suite(.serialized) struct DatasetBlurTests {
    static let photos = ["libjpeg-turbo/testorig.jpg", "derived/testorig-grayscale.jpg", "exif-orientation/Landscape_0.jpg",
                         "exif-orientation/Portrait_0.jpg", "jpeg-edge/progressive3.jpg", "png-suite/basn6a08.png"]

    static let makeInput = #"""
    import sys, pyarrow as pa, pyarrow.parquet as pq
    folder, base, photos = sys.argv[1], sys.argv[2], int(sys.argv[3])
    boxes = [[[0.3, 0.25, 0.55, 0.6]], [[0.1, 0.1, 0.3, 0.4], [0.6, 0.5, 0.9, 0.95]], [], None,
             [[0.0, 0.0, 0.2, 0.3]], [[0.7, 0.6, 1.0, 1.0]], [[0.45, 0.45, 0.5, 0.52]], [[0.2, 0.3, 0.8, 0.7]]]
    rows = [{"uid": "%032x" % (i * 7919 + 12345), "url": f"{base}/p/{i % photos}.img", "text": f"photo {i}",
             "face_bboxes": boxes[i % len(boxes)]} for i in range(48)]
    schema = pa.schema([("uid", pa.string()), ("url", pa.string()), ("text", pa.string()),
                        ("face_bboxes", pa.list_(pa.list_(pa.float64())))])
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), folder + "/in.parquet")
    """#

    static let compare = #"""
    import sys, json, glob, io, tarfile
    import numpy as np, pyarrow.parquet as pq
    from PIL import Image
    theirs, ours, plain, ext = sys.argv[1:5]
    def load(folder):
        imgs, metas = {}, {}
        for p in glob.glob(folder + "/*.tar"):
            with tarfile.open(p) as tf:
                for m in tf.getmembers():
                    k, e = m.name.rsplit(".", 1)
                    data = tf.extractfile(m).read()
                    if e == ext: imgs[k] = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=np.float64)
                    # EXIF differs on some photos for reasons of its own (DatasetDifferentialTests): not this test's.
                    if e == "json": metas[k] = "\n".join(l for l in data.decode().split("\n") if not l.startswith('    "exif": '))
        tables = [pq.read_table(p) for p in glob.glob(folder + "/*.parquet")]
        rows = {r["key"]: r for t in tables for r in t.to_pylist()}
        return imgs, metas, rows, [[f.name, str(f.type)] for f in tables[0].schema]
    def psnr(a, b):
        mse = ((a - b) ** 2).mean() if a.size else 0
        return 99.0 if mse == 0 else float(10 * np.log10(255 ** 2 / mse))
    def reach(boxes, w, h):
        # img2dataset's grown boxes widened by its kernel's radius: the only pixels a blur may change.
        out, rects, md = np.zeros((h, w), bool), [], 0
        for b in boxes:
            x0, y0, x1, y1 = int(b[0] * w), int(b[1] * h), int(b[2] * w), int(b[3] * h)
            d = max(x1 - x0, y1 - y0); md = max(md, d)
            rects.append([int(x0 - 0.1 * d), int(y0 - 0.1 * d), int(x1 + 0.1 * d), int(y1 + 0.1 * d)])
        r = max(3, int(2 * np.ceil(0.1 * md) + 1)) // 2
        for x0, y0, x1, y1 in rects:
            x0, x1 = np.clip([x0, x1], 0, w - 1); y0, y1 = np.clip([y0, y1], 0, h - 1)
            if x1 > x0 and y1 > y0: out[max(0, y0 - r):y1 + r, max(0, x0 - r):x1 + r] = True
        return out
    A, B, P = load(theirs), load(ours), load(plain)
    res = {"images": [len(A[0]), len(B[0]), len(P[0])], "schema": [A[3], B[3]], "inside": [], "untouched": [],
           "blurred_vs_plain": [], "bbox_differs": [], "json_differs": []}
    for k in sorted(A[2]):
        if A[2][k]["face_bboxes"] != B[2].get(k, {}).get("face_bboxes"): res["bbox_differs"].append(k)
        if A[1].get(k) != B[1].get(k): res["json_differs"].append([k, A[1].get(k), B[1].get(k)])
        a, b, p = A[0].get(k), B[0].get(k), P[0].get(k)
        if a is None or b is None or p is None or a.shape != b.shape or b.shape != p.shape: continue
        h, w = a.shape[:2]
        inside = np.zeros((h, w), bool)
        for box in A[2][k]["face_bboxes"] or []:
            inside[int(box[1] * h):int(box[3] * h), int(box[0] * w):int(box[2] * w)] = True
        if inside.any():
            res["inside"].append(round(psnr(a[inside], b[inside]), 2))
            res["blurred_vs_plain"].append(round(psnr(b[inside], p[inside]), 2))
        res["untouched"].append(int(((b != p).any(axis=2) & ~reach(A[2][k]["face_bboxes"] or [], w, h)).sum()))
    print(json.dumps(res))
    """#

    /// Both tools on the same rows with DataComp's options in `format`; what `compare` found.
    func run(format: String) async throws -> [String: Any] {
        let work = try TempDirectory(prefix: "dataset-blur")
        let server = try FaultServer()
        for (i, name) in Self.photos.enumerated() {
            let bytes = try Corpus.bytes(name)
            server.route("/p/\(i).img") { _, _ in .file(bytes, contentType: "image/jpeg") }
        }
        let made = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", Self.makeInput, work.path, server.url(""), String(Self.photos.count)]), timeout: 60)
        try #require(made.exitCode == 0, "\(made.stderrText)")
        // download_upstream.py's img2dataset.download(...) arguments, as command-line options.
        let common = ["--url_list", work.path + "/in.parquet", "--input_format", "parquet", "--url_col", "url", "--caption_col", "text",
                      "--save_additional_columns", "['uid']", "--image_size", "512", "--resize_mode", "keep_ratio_largest",
                      "--resize_only_if_bigger", "True", "--encode_format", format, "--output_format", "webdataset",
                      "--oom_shard_count", "8", "--number_sample_per_shard", "100"] + (format == "png" ? ["--encode_quality", "9"] : [])
        let theirs = work.path + "/img2dataset", ours = work.path + "/ours", plain = work.path + "/plain"
        let i2d = await DownloadCLI.wait(try ProcessRunner("python3", ["-m", "img2dataset.main"] + common + [
            "--bbox_col", "face_bboxes", "--output_folder", theirs, "--processes_count", "1", "--thread_count", "8"]), timeout: 300)
        try #require(i2d.exitCode == 0, "img2dataset: \(i2d.stderrText.suffix(2000))")
        let r = try await DatasetCLI.run(common + ["--bbox_col", "face_bboxes", "--output_folder", ours, "--quiet"])
        try #require(r.exitCode == 0, "\(r.stderrText)")
        let p = try await DatasetCLI.run(common + ["--output_folder", plain, "--quiet"])
        try #require(p.exitCode == 0, "\(p.stderrText)")
        let c = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", Self.compare, theirs, ours, plain, format]), timeout: 120)
        try #require(c.exitCode == 0, "\(c.stderrText)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(c.stdoutText.utf8)) as? [String: Any])
        #expect(result["images"] as? [Int] == [48, 48, 48], "images: \(result["images"] ?? "")")
        let schema = result["schema"] as? [[[String]]] ?? []
        #expect(schema.count == 2 && schema[0] == schema[1], "schemas differ:\n\(schema.first ?? [])\n\(schema.last ?? [])")
        #expect(schema.first?.contains(["face_bboxes", "list<element: list<element: double>>"]) == true, "\(schema.first ?? [])")
        #expect((result["bbox_differs"] as? [Any])?.isEmpty == true, "face_bboxes differ: \(result["bbox_differs"] ?? "")")
        #expect((result["json_differs"] as? [Any])?.isEmpty == true, ".json members differ: \(result["json_differs"] ?? "")")
        let inside = result["inside"] as? [Double] ?? []
        // 6 of every 8 rows carry boxes that land on the picture.
        #expect(inside.count == 36, "rows compared inside their boxes: \(inside.count)")
        let mean = inside.reduce(0, +) / Double(max(1, inside.count))
        print("dataset blur (\(format)): \(inside.count) images, PSNR inside the boxes ours vs img2dataset: "
              + "min \(String(format: "%.1f", inside.min() ?? 0)) dB, mean \(String(format: "%.1f", mean)) dB")
        #expect((inside.min() ?? 0) >= 30, "PSNR inside the boxes: \(inside)")
        // The blur happened: inside the boxes our blurred image is far from our unblurred one.
        let blurred = result["blurred_vs_plain"] as? [Double] ?? []
        #expect(blurred.count == 36 && blurred.allSatisfy { $0 < 46 }, "PSNR blurred vs unblurred inside the boxes: \(blurred)")
        return result
    }

    @Test func pngBlurMatchesImg2datasetAndLeavesTheRestUntouched() async throws {
        let result = try await run(format: "png")
        let untouched = result["untouched"] as? [Int] ?? []
        #expect(untouched.count == 48 && untouched.allSatisfy { $0 == 0 }, "pixels changed beyond the blur's reach: \(untouched)")
    }

    @Test func dataCompsOwnOptionsBlurAsImg2datasetDoes() async throws {
        _ = try await run(format: "jpg")
    }

    /// A box column on a plain list of URLs, or under a name the dataset keeps for itself, is refused by name
    /// (img2dataset would fail on the first row instead).
    @Test func aBoxColumnWhereNoneCanBeIsRefused() async throws {
        let work = try TempDirectory(prefix: "dataset-blur-refused")
        let list = try work.write(Array("http://127.0.0.1:9/a.jpg\n".utf8), to: "list.txt")
        let txt = try await DatasetCLI.run(["--url-list", list, "--output-folder", work.file("a"), "--bbox-col", "face_bboxes"])
        #expect(txt.exitCode != 0 && txt.stderrText.contains("--bbox-col face_bboxes needs an input with columns"), "\(txt.stderrText)")
        let reserved = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--output-folder", work.file("b"), "--bbox-col", "status"])
        #expect(reserved.exitCode != 0 && reserved.stderrText.contains("--bbox-col status: that name is reserved"), "\(reserved.stderrText)")
    }
}
