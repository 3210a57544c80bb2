import Foundation
import GalleryTestSupport
import Testing

/// The indexes trainers read beside a webdataset, each read with its reader's own logic (written here from
/// their code, since torch and DALI cannot run here): open_clip's `get_dataset_size` (sizes.json), timm's
/// `_info.json` split reading, wids' shard index (`wids-shard-index-v1`, urls resolved against the index's
/// folder, md5sum and nsamples checked against the tar), and DALI's `wds2idx` run on our tars with GNU tar
/// as it does, its output compared with our `.idx` files byte for byte. After a resume and a --retry-failed, and
/// after the processes of a `--shard K/N` run, one after the other in either order and side by side.
@Suite(.serialized) struct DatasetShardIndexTests {
    static let readers = #"""
    import sys, os, json, glob, hashlib, tarfile, subprocess
    folder = sys.argv[1]
    out = {}
    # open_clip (training/data.py): get_dataset_size on the brace-expanded shard list.
    tars = sorted(glob.glob(folder + "/*.tar"))
    shards = [os.path.join(folder, os.path.basename(t)) for t in tars]
    sizes = json.load(open(os.path.join(os.path.dirname(shards[0]), "sizes.json")))
    out["open_clip"] = [sum(int(sizes[os.path.basename(s)]) for s in shards), len(shards)]
    # timm (data/readers/reader_wds.py): _load_info, then _parse_split_info for split "train".
    info = json.load(open(os.path.join(folder, "_info.json")))
    split = info["splits"]["train"]
    out["timm"] = [split["name"], split["num_samples"], list(split["filenames"]), list(split["shard_lengths"]),
                   all(os.path.exists(os.path.join(folder, f)) for f in split["filenames"])]
    # wids (wids_specs.py / wids.py): the index's kind and version, check_shards, urls rebased on its folder,
    # the md5sum check wids makes before it uses a shard, nsamples as wids' compute_num_samples counts them.
    index = json.load(open(os.path.join(folder, "shardindex.json")))
    assert index["__kind__"] == "wids-shard-index-v1" and index["wids_version"] == 1
    wids = []
    for shard in index["shardlist"]:
        assert "url" in shard and "nsamples" in shard
        path = os.path.normpath(os.path.join(folder, shard["url"]))
        data = open(path, "rb").read()
        with tarfile.open(path) as tf:
            keys = []
            for m in tf.getmembers():
                k = m.name.split(".", 1)[0]
                if not keys or keys[-1] != k: keys.append(k)
        wids.append([shard["url"], shard["md5sum"] == hashlib.md5(data).hexdigest(), shard["nsamples"] == len(keys),
                     shard["filesize"] == len(data), shard["nsamples"]])
    out["wids"] = wids
    # DALI tools/wds2idx.py: `tar --list --block-num` and `tar --verbose --list`, its offsets and bundles.
    def wds2idx(uri):
        blocks = subprocess.run(["tar", "--list", "--block-num", "--file", uri], capture_output=True).stdout.split(b"\n")
        types = subprocess.run(["tar", "--verbose", "--list", "--file", uri], capture_output=True).stdout.split(b"\n")
        data = []
        for line, nxt, ts in zip(blocks, blocks[1:], types):
            if not line or not ts: continue
            name = str(line[line.find(b":") + 2:], "ascii")
            if ts[0:1] != b"-": continue
            offset = int(nxt[nxt.find(b"block") + 6: nxt.find(b":")]) * 512
            size = ts[: -len(name)]
            size = size[: size.rfind(b"-") - 8]
            size = int(size[size.rfind(b" "):])
            offset -= size
            offset -= offset % 512
            data.append((offset, name, size))
        bundles, last = [], None
        for offset, name, size in data:
            dot = name.find(".", name.rfind("/") + 1)
            base, ext = name[:dot], name[dot + 1:]
            if not base or base.endswith("/"): continue
            if last != base: bundles.append([(ext, offset, size, name)]); last = base
            else: bundles[-1].append((ext, offset, size, name))
        if not bundles: return None
        return f"v1.2 {len(bundles)}\n" + "".join(" ".join(" ".join(map(str, c)) for c in b) + "\n" for b in bundles)
    out["idx"] = {}
    for t in tars:
        idx = t[:-4] + ".idx"
        ours = open(idx).read() if os.path.exists(idx) else None
        out["idx"][os.path.basename(t)] = [ours == wds2idx(t), ours is not None]
    out["tar_samples"] = {os.path.basename(t): len({m.split(".", 1)[0] for m in tarfile.open(t).getnames()}) for t in tars}
    print(json.dumps(out))
    """#

    /// What the readers found in `folder`, checked against the tars themselves; returns the samples the tars hold.
    @discardableResult
    func check(_ folder: String, shards: Int, _ label: String) async throws -> Int {
        let r = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", Self.readers, folder]), timeout: 120)
        try #require(r.exitCode == 0, "\(label): \(r.stderrText)")
        let out = try #require(try JSONSerialization.jsonObject(with: Data(r.stdoutText.utf8)) as? [String: Any])
        let samples = out["tar_samples"] as? [String: Int] ?? [:]
        let total = samples.values.reduce(0, +)
        #expect(samples.count == shards && total > 0, "\(label): tars \(samples)")
        #expect(out["open_clip"] as? [Int] == [total, shards], "\(label): open_clip get_dataset_size \(out["open_clip"] ?? "")")
        let timm = out["timm"] as? [Any] ?? []
        #expect(timm.count == 5 && timm[0] as? String == "train" && timm[1] as? Int == total
                && timm[2] as? [String] == samples.keys.sorted() && timm[3] as? [Int] == samples.keys.sorted().map { samples[$0]! }
                && timm[4] as? Bool == true, "\(label): timm split \(timm)")
        let wids = out["wids"] as? [[Any]] ?? []
        #expect(wids.count == shards && wids.allSatisfy { $0[1] as? Bool == true && $0[2] as? Bool == true && $0[3] as? Bool == true },
                "\(label): wids shards (url, md5 ok, nsamples ok, filesize ok) \(wids)")
        let idx = out["idx"] as? [String: [Bool]] ?? [:]
        #expect(idx.count == shards && idx.values.allSatisfy { $0 == [true, true] }, "\(label): .idx equal to wds2idx's, present \(idx)")
        return total
    }

    /// A reshape of a folder writes many shards at once (their tars' MD5s are taken together, in lanes where the
    /// processor has them): each new tar's md5sum, count and `.idx` still hold.
    @Test func aReshapeIntoManyShardsIndexesEachOfThem() async throws {
        let fixture = try DatasetFixture(count: 120)
        let list = try fixture.writeCSV()
        let old = fixture.work.file("old")
        let r = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--output-format", "webdataset",
                                          "--output-folder", old, "--quiet"] + DatasetFixture.options)
        try #require(r.exitCode == 0, "\(r.stderrText)")
        let total = try await check(old, shards: 2, "download")
        let new = fixture.work.file("new")
        let reshaped = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--resize-mode", "no",
                                                 "--number-sample-per-shard", "5", "--output-format", "webdataset",
                                                 "--output-folder", new, "--quiet"])
        try #require(reshaped.exitCode == 0, "\(reshaped.stderrText)")
        let shards = (total + 4) / 5
        #expect(shards > 16, "\(total) samples")
        #expect(try await check(new, shards: shards, "reshape") == total)
    }

    @Test func trainersReadTheIndexesAfterARunAResumeAndARetry() async throws {
        let fixture = try DatasetFixture(count: 250)
        let list = try fixture.writeCSV()
        let out = fixture.work.file("out")
        let options = ["--url-list", list, "--input-format", "csv", "--output-format", "webdataset", "--output-folder", out, "--quiet"]
            + DatasetFixture.options
        let r = try await DatasetCLI.run(options)
        try #require(r.exitCode == 0, "\(r.stderrText)")
        try await check(out, shards: 3, "first run")

        // A resume: one shard's files gone (an interrupted run), the next run redoes it and the indexes cover it.
        for name in ["00001.tar", "00001.parquet", "00001_stats.json", "00001.idx"] { try? FileManager.default.removeItem(atPath: out + "/" + name) }
        let resumed = try await DatasetCLI.run(options)
        try #require(resumed.exitCode == 0, "\(resumed.stderrText)")
        try await check(out, shards: 3, "resumed")

        // --retry-failed rewrites the shards with rows that failed to download: their md5 and .idx follow.
        let before = try String(contentsOfFile: out + "/shardindex.json", encoding: .utf8)
        fixture.server.route("/missing.jpg") { _, _ in .file(try! Corpus.bytes("libjpeg-turbo/testorig.jpg"), contentType: "image/jpeg") }
        let retried = try await DatasetCLI.run(options + ["--retry-failed"])
        try #require(retried.exitCode == 0, "\(retried.stderrText)")
        try await check(out, shards: 3, "after --retry-failed")
        #expect(try String(contentsOfFile: out + "/shardindex.json", encoding: .utf8) != before, "the retried shards' md5 and counts changed")
    }

    /// `--shard 0/2` and `--shard 1/2` on one folder: whichever finishes last, the indexes list every shard (each
    /// update reads the other process's finished tars too, under the folder's lock).
    @Test func theProcessesOfAShardedRunLeaveIndexesOfEveryShard() async throws {
        let fixture = try DatasetFixture(count: 450)
        let list = try fixture.writeCSV()
        func options(_ out: String, _ shard: String) -> [String] {
            ["--url-list", list, "--input-format", "csv", "--output-format", "webdataset", "--output-folder", fixture.work.file(out),
             "--quiet", "--shard", shard] + DatasetFixture.options
        }
        for order in [["0/2", "1/2"], ["1/2", "0/2"]] {
            let out = "out-" + order[0].prefix(1)
            for shard in order {
                let r = try await DatasetCLI.run(options(out, shard))
                try #require(r.exitCode == 0, "\(shard): \(r.stderrText)")
            }
            try await check(fixture.work.file(out), shards: 5, "--shard \(order[0]) then \(order[1])")
        }
        // Side by side: their updates interleave, the last one lists all.
        async let a = DatasetCLI.run(options("together", "0/2"))
        async let b = DatasetCLI.run(options("together", "1/2"))
        let (ra, rb) = try await (a, b)
        try #require(ra.exitCode == 0 && rb.exitCode == 0, "\(ra.stderrText) \(rb.stderrText)")
        try await check(fixture.work.file("together"), shards: 5, "--shard 0/2 and 1/2 at once")
    }

    /// parquet, tfrecord and files: `sizes.json` and `_info.json` (no wids index, no `.idx`: those describe tars),
    /// each shard file's count equal to the samples with an image a reader finds in it.
    static let counts = #"""
    import sys, os, json, glob, struct
    import pyarrow.parquet as pq
    folder, fmt = sys.argv[1], sys.argv[2]
    def samples(path):
        if fmt == "parquet":
            t = pq.read_table(path).to_pylist()
            col = next(c for c in ("jpg", "png", "webp") if c in t[0])
            return sum(r[col] is not None for r in t)
        if fmt == "tfrecord":
            n, data = 0, open(path, "rb").read()
            i = 0
            while i < len(data):
                length = struct.unpack("<Q", data[i:i + 8])[0]
                i += 12 + length + 4
                n += 1
            return n
        return len([f for f in os.listdir(path) if f.rsplit(".", 1)[-1] in ("jpg", "png", "webp")])
    stats = sorted(os.path.basename(p)[:-len("_stats.json")] for p in glob.glob(folder + "/*_stats.json"))
    files = [s if fmt == "files" else s + "." + fmt for s in stats]
    actual = {f: samples(os.path.join(folder, f)) for f in files}
    sizes = json.load(open(os.path.join(folder, "sizes.json")))
    split = json.load(open(os.path.join(folder, "_info.json")))["splits"]["train"]
    print(json.dumps({"actual": actual, "sizes": sizes, "timm": [split["num_samples"], split["filenames"], split["shard_lengths"]],
                      "others": sorted(n for n in os.listdir(folder) if n == "shardindex.json" or n.endswith(".idx"))}))
    """#

    @Test(arguments: ["parquet", "tfrecord", "files"]) func otherFormatsCountEachShardFile(format: String) async throws {
        let fixture = try DatasetFixture(count: 250)
        let list = try fixture.writeCSV()
        let out = fixture.work.file("out")
        let r = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--output-format", format, "--output-folder", out,
                                          "--quiet"] + DatasetFixture.options)
        try #require(r.exitCode == 0, "\(r.stderrText)")
        let read = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", Self.counts, out, format]), timeout: 120)
        try #require(read.exitCode == 0, "\(read.stderrText)")
        let got = try #require(try JSONSerialization.jsonObject(with: Data(read.stdoutText.utf8)) as? [String: Any])
        let actual = try #require(got["actual"] as? [String: Int])
        #expect(actual.count == 3 && actual.values.reduce(0, +) > 0, "\(format): \(actual)")
        #expect(got["sizes"] as? [String: Int] == actual, "\(format): sizes.json \(got["sizes"] ?? "") against the files \(actual)")
        let names = actual.keys.sorted()
        let timm = got["timm"] as? [Any] ?? []
        #expect(timm.count == 3 && timm[0] as? Int == actual.values.reduce(0, +) && timm[1] as? [String] == names
                && timm[2] as? [Int] == names.map { actual[$0]! }, "\(format): _info.json \(timm)")
        #expect((got["others"] as? [String]) == [], "\(format): \(got["others"] ?? "")")
    }

    /// Another process holding the folder's index lock (as a `--shard` process does while it updates): the run
    /// writes its shard, then waits for the lock before it touches the indexes, and writes them once it has it.
    static let lockHolder = #"""
    import fcntl, json, os, subprocess, sys, time
    folder, args = sys.argv[1], sys.argv[2:]
    os.makedirs(folder, exist_ok=True)
    lock = open(os.path.join(folder, ".shard-indexes.lock"), "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    run = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while not os.path.exists(os.path.join(folder, "00000_stats.json")) and time.time() < deadline and run.poll() is None:
        time.sleep(0.05)
    stats = os.path.exists(os.path.join(folder, "00000_stats.json"))
    time.sleep(1.5)
    held = {"stats": stats, "sizes": os.path.exists(os.path.join(folder, "sizes.json")), "running": run.poll() is None}
    fcntl.flock(lock, fcntl.LOCK_UN)
    err = run.communicate(timeout=120)[1].decode()
    print(json.dumps({"held": held, "code": run.returncode, "stderr": err, "sizes": os.path.exists(os.path.join(folder, "sizes.json"))}))
    """#

    @Test func aRunWaitsForTheFolderIndexLockBeforeItWritesTheIndexes() async throws {
        let fixture = try DatasetFixture(count: 100)
        let list = try fixture.writeCSV()
        let out = fixture.work.file("out")
        let cli = [DownloadCLI.binary, "dataset", "--url-list", list, "--input-format", "csv", "--output-format", "webdataset",
                   "--output-folder", out, "--quiet"] + DatasetFixture.options
        let r = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", Self.lockHolder, out] + cli), timeout: 300)
        try #require(r.exitCode == 0, "\(r.stderrText)")
        let got = try #require(try JSONSerialization.jsonObject(with: Data(r.stdoutText.utf8)) as? [String: Any])
        #expect(got["held"] as? [String: Bool] == ["stats": true, "sizes": false, "running": true],
                "while another process held the lock: \(got["held"] ?? "")")
        #expect(got["code"] as? Int == 0 && got["sizes"] as? Bool == true, "after it let go: \(got)")
        try await check(out, shards: 1, "after the lock was released")
    }
}
