import Foundation
import GalleryTestSupport
import Testing

/// The indexes trainers read beside a webdataset, each read with its reader's own logic (written here from
/// their code, since torch and DALI cannot run here): open_clip's `get_dataset_size` (sizes.json), timm's
/// `_info.json` split reading, wids' shard index (`wids-shard-index-v1`, urls resolved against the index's
/// folder, md5sum and nsamples checked against the tar), and DALI's `wds2idx` run on our tars with GNU tar
/// as it does, its output compared with our `.idx` files byte for byte. After a resume and a --retry-failed.
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

    /// What the readers found in `folder`, checked against the tars themselves.
    func check(_ folder: String, shards: Int, _ label: String) async throws {
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
}
