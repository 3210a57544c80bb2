import Foundation
import GalleryTestSupport
import Testing

/// Reads a dataset of any output format with Python (tarfile, pyarrow, PIL: the readers users run) for the
/// reshape tests: every sample with an image, by key, with its metadata, the md5 of its image bytes and the
/// size PIL decodes; the keys in shard order as a list (so a sample written twice shows).
enum ReshapeRead {
    static let script = #"""
    import json, sys, glob, os, tarfile, io, hashlib
    import pyarrow.parquet as pq
    from PIL import Image
    folder, fmt, ext = sys.argv[1], sys.argv[2], sys.argv[3]
    samples, keys, shards = {}, [], {}
    def add(shard, key, image, meta, caption):
        im = Image.open(io.BytesIO(image))
        samples[key] = {"meta": meta, "md5": hashlib.md5(image).hexdigest(), "size": list(im.size), "format": im.format,
                        "caption": caption, "shard": shard}
        keys.append(key)
        shards[shard] = shards.get(shard, 0) + 1
    if fmt == "webdataset":
        for p in sorted(glob.glob(folder + "/*.tar")):
            shard = os.path.basename(p)[:-4]
            with tarfile.open(p) as tf:
                group = {}
                for m in tf.getmembers():
                    k, member = m.name.split(".", 1)
                    group.setdefault(k, {})[member] = tf.extractfile(m).read()
                for k, g in group.items():
                    add(shard, k, g[ext], json.loads(g["json"]), g.get("txt", b"").decode() if "txt" in g else None)
    elif fmt == "parquet":
        for p in sorted(glob.glob(folder + "/*.parquet")):
            shard = os.path.basename(p)[:-8]
            for r in pq.read_table(p).to_pylist():
                if r.get(ext) is None: continue
                image = r.pop(ext)
                add(shard, r["key"], image, r, r.get("caption"))
    else:
        for d in sorted(glob.glob(folder + "/[0-9]*/")):
            shard = os.path.basename(d.rstrip("/"))
            for name in sorted(os.listdir(d)):
                if not name.endswith("." + ext): continue
                k = name[:-len(ext) - 1]
                meta = json.load(open(d + k + ".json"))
                cap = open(d + k + ".txt").read() if os.path.exists(d + k + ".txt") else None
                add(shard, k, open(d + name, "rb").read(), meta, cap)
    metas = sorted(glob.glob(folder + "/*.parquet"))
    schema = [[f.name, str(f.type)] for f in pq.read_schema(metas[0]) if f.name != ext] if metas else []
    print(json.dumps({"samples": samples, "keys": keys, "shards": shards, "schema": schema}))
    """#

    struct Dataset {
        var samples: [String: [String: Any]]
        var keys: [String]
        var shards: [String: Int]
        /// The metadata Parquet's columns and types (the image column left out).
        var schema: [[String]]
        func meta(_ key: String) -> [String: Any] { samples[key]?["meta"] as? [String: Any] ?? [:] }
        func string(_ key: String, _ field: String) -> String? { samples[key]?[field] as? String }
        func size(_ key: String) -> [Int] { samples[key]?["size"] as? [Int] ?? [] }
    }

    static func read(_ folder: String, format: String, image: String = "jpg") async throws -> Dataset {
        let r = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", script, folder, format, image]), timeout: 120)
        guard r.exitCode == 0, let object = try JSONSerialization.jsonObject(with: Data(r.stdoutText.utf8)) as? [String: Any] else {
            throw DatasetCLIError.reader(r.stderrText)
        }
        return Dataset(samples: object["samples"] as? [String: [String: Any]] ?? [:], keys: object["keys"] as? [String] ?? [],
                       shards: object["shards"] as? [String: Int] ?? [:], schema: object["schema"] as? [[String]] ?? [])
    }

    /// img2dataset 1.47 on the fixture's list, `format` output, 20 rows a shard, keep_ratio at 256; the extra
    /// columns in the order tag, n (not alphabetical: the new dataset must keep the old order).
    static func img2dataset(_ fixture: DatasetFixture, format: String, folder: String) async throws {
        let list = try fixture.writeCSV()
        let args = ["-m", "img2dataset.main", "--url_list", list, "--input_format", "csv", "--caption_col", "text",
                    "--save_additional_columns", "['tag','n']", "--min_image_size", "16", "--max_aspect_ratio", "5",
                    "--number_sample_per_shard", "20", "--output_format", format, "--resize_mode", "keep_ratio",
                    "--processes_count", "1", "--thread_count", "8", "--output_folder", folder]
        let r = await DownloadCLI.wait(try ProcessRunner("python3", args), timeout: 300)
        try #require(r.exitCode == 0, "img2dataset: \(r.stderrText.suffix(2000))")
    }
}
