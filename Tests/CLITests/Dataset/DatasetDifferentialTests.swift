import Foundation
import GalleryTestSupport
import Testing

/// img2dataset 1.47 and `fetch-gallery dataset` on the same rows from the same loopback server of real photos
/// (one with a camera's EXIF block), through Scripts/dataset-differential: eight runs that cover every output
/// format (files, webdataset, parquet, tfrecord), every resize mode (no, border, keep_ratio, keep_ratio_largest,
/// center_crop) and the encode formats jpg, png and webp at least once, and LAION-400M's, laion2B-en's and
/// DataComp's recipes unchanged on Parquet shaped like theirs. Each compares the rows as multisets (a row
/// written twice fails), every metadata column and the schema, the hash, `exif`, every member by name with
/// `.txt` and `.json` byte for byte, each image's format, size and PSNR, and the `_stats.json` counts. Our
/// deliberate differences are named in the script (DIFFERENCES) and each run says which it applied. The TFRecord
/// run compares each example with the one img2dataset's own writer made (TensorFlow in a venv of its own).
/// `Scripts/dataset-differential --matrix` runs all 60 format x mode x encode combinations and the recipes.
@Suite(.serialized) struct DatasetDifferentialTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/dataset-differential").path

    /// The differences a run may apply (DIFFERENCES in the script); anything else is a failure.
    static let named: Set<String> = ["opted_out", "size", "exif", "tfrecord", "processes", "wandb"]

    static let runs = ["webdataset-keep_ratio-jpg", "files-border-png", "parquet-center_crop-webp", "tfrecord-keep_ratio_largest-jpg",
                       "webdataset-no-webp", "laion400m", "laion2B-en", "datacomp"]

    @Test(arguments: runs) func theSameDatasetAsImg2datasetOnTheSameRows(run: String) async throws {
        // 16 rows: each photo and each reason to fail once (two shards of 10 for the command-line runs).
        let r = await DownloadCLI.wait(try ProcessRunner("python3", [Self.script, "--run", run, "--rows", "16", "--binary", DownloadCLI.binary]),
                                       timeout: 400)
        let line = r.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
        let result = try #require(try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                                  "dataset-differential \(run) printed no result (exit \(r.exitCode)): \(r.stderrText.suffix(3000))")
        let problems = result["problems"] as? [String] ?? ["no problems list"]
        #expect(problems.isEmpty, "\(run): ours differs from img2dataset:\n\(problems.joined(separator: "\n"))")
        #expect(r.exitCode == 0 && result["ok"] as? Bool == true, "\(run): \(line)")
        #expect(Set(result["differences"] as? [String] ?? ["?"]).isSubset(of: Self.named), "\(run): \(result["differences"] ?? "")")
        // Each proof had something to compare: images, members, hashes and EXIF blocks.
        #expect((result["rows"] as? Int) == 16, "\(run): \(line)")
        #expect((result["images_compared"] as? Int ?? 0) >= 10, "\(run): \(line)")
        #expect((result["hashed_rows"] as? Int ?? 0) >= 10, "\(run): \(line)")
        #expect((result["exif_rows"] as? Int ?? 0) >= 3, "\(run): \(line)")
        if !run.hasPrefix("parquet") && !run.hasPrefix("tfrecord") { #expect((result["texts_compared"] as? Int ?? 0) >= 20, "\(run): \(line)") }
        // laion2B-en's --skip_reencode: the photos that need no resize are kept as downloaded, by both.
        if run == "laion2B-en" { #expect((result["kept_bytes"] as? Int ?? 0) >= 5, "\(run): \(line)") }
        // img2dataset's --processes_count and --thread_count are taken and named as doing nothing here.
        if run != "laion2B-en" && run != "datacomp" {
            let notes = (result["notes"] as? [String] ?? []).joined(separator: "\n")
            #expect(notes.contains("note: --processes-count") && notes.contains("note: --thread-count"), "\(run): \(notes)")
        }
        #expect((result["psnr_min"] as? Double ?? 0) >= 30, "\(run): \(line)")
        // TFRecord against img2dataset's own writer (tensorflow in the venv Scripts/bootstrap makes), example by example.
        if run.hasPrefix("tfrecord") {
            #expect(result["tfrecord_writer"] as? String == "img2dataset",
                    "\(run): img2dataset wrote no TFRecord (run Scripts/bootstrap: it makes ~/.cache/fetch-gallery/img2dataset-tf): \(line)")
            #expect((result["examples_compared"] as? Int ?? 0) >= 10, "\(run): \(line)")
        }
        print("dataset differential \(run): \(result["images_compared"] ?? 0) images, PSNR against img2dataset min \(result["psnr_min"] ?? 0) dB, "
              + "mean \(result["psnr_mean"] ?? 0) dB; seconds \(result["seconds"] ?? "")")
    }
}
