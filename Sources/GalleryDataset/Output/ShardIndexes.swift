import DatasetFormats
import Foundation
import GalleryImaging
import GalleryRunner
import GallerySync
import GallerySystem

/// The indexes trainers read next to a webdataset's shards, rewritten whenever a shard finishes (and once
/// at the end of a run, so a resumed or `--retry-failed` run leaves them whole):
///
/// - `sizes.json`: `{"00000.tar": samples, ...}` (open_clip's `get_dataset_size`);
/// - `_info.json`: `{"name", "splits": {"train": {"name", "num_samples", "filenames", "shard_lengths"}}}`
///   (timm's and chug's webdataset readers);
/// - `shardindex.json`: wids' `wids-shard-index-v1` (each shard's `url`, relative, `nsamples`, `filesize`, `md5sum`);
/// - `NNNNN.idx` per tar, line for line what DALI's `wds2idx` writes (`v1.2 N`, then per sample
///   `ext offset size name` for each member); none for a shard without samples, which wds2idx refuses.
///
/// Every shard with a `_stats.json` and a tar counts, whichever run or `--shard K/N` process wrote it. A tar's MD5
/// and members are taken as this process writes it (``IndexingSink``), so its own tars are not read back. In a
/// folder each update lists the folder under an exclusive lock (``lockName``), reads the tars it has not seen (another
/// process's, or one changed since it was written), and replaces each index whole (written, then renamed), so the
/// last process to update leaves every finished shard listed. In a store (``folder`` nil) nothing is read back: each
/// `.idx` goes up as its shard finishes and the JSON indexes when the run ends, each file in one PUT; the shards of
/// earlier runs come from the store's `shardindex.json` as the run found it (``adopt(_:)``).
final class ShardIndexes: Sendable {
    /// The dataset's local folder; nil for a store.
    let folder: String?
    /// `_info.json`'s and `shardindex.json`'s `name`: the folder's or prefix's last component.
    let name: String
    let sink: any DatasetSink
    let known = Locked([String: Entry]())
    let format: DatasetOutputFormat
    /// The `.idx` texts of tars this process wrote, until their shard's update writes them.
    private let pendingIdx = Locked([String: String?]())
    /// The file each process of a folder's run locks while it updates the indexes.
    static let lockName = ".shard-indexes.lock"

    struct Entry: Sendable, Equatable {
        var samples: Int
        var fileSize: Int
        var md5: String
        /// The tar's modification time (seconds, nanoseconds); for another format its stats file's and size; empty in a store.
        var modified: [Int]
    }

    init(folder: String?, name: String, format: DatasetOutputFormat = .webdataset, sink: any DatasetSink) {
        self.folder = folder
        self.format = format
        self.name = name
        self.sink = sink
    }

    /// Brings the indexes up to date; `finished`: the shard just written (its tar is read again even if
    /// it looks unchanged). A failure is returned as a message (the shards themselves are fine).
    @discardableResult
    func update(finished: String? = nil) -> String? {
        let tars = IndexedTars(folder: folder)
        return known.withLock { known -> String? in
            var lock: Int32?
            defer { lock.map(Syscall.closeQuietly) }
            do throws(DatasetFormatError) {
                lock = try tars.lock()
                let names = try sink.list()
                let done = Set(names.filter { $0.hasSuffix("_stats.json") }.map { String($0.dropLast("_stats.json".count)) })
                // In a store, a file rewritten while its last upload may still read its spool would race it: the
                // JSON indexes go up once, when the run ends (after every shard's upload), each shard's .idx with it.
                let writesJSON = tars.readsBack || finished == nil
                guard format == .webdataset else {
                    if writesJSON { try writeIndexes(countEntries(names, done: done, known: &known), wids: false) }
                    return nil
                }
                var entries: [(tar: String, entry: Entry)] = []
                for name in names where name.hasSuffix(".tar") && done.contains(String(name.dropLast(4))) {
                    guard let stamp = tars.stamp(name) else { continue }
                    let pending = pendingIdx.withLock { $0.removeValue(forKey: name) }
                    let entry = known[name].flatMap { stamp.holds($0) ? $0 : nil }
                    // Indexed as this process wrote it and unchanged since, or indexed before (and, in a folder, not
                    // the shard just written): not read back.
                    let rereads = tars.readsBack && pending == nil && finished.map { $0 + ".tar" == name } ?? false
                    if let entry, !rereads {
                        if let pending { try writeIdx(of: name, pending) }
                        entries.append((name, entry))
                        continue
                    }
                    guard tars.readsBack else { continue }
                    guard let (read, idx) = tars.read(name, stamp) else { return "\(tars.path(name)): not a tar this run can index" }
                    try writeIdx(of: name, idx)
                    known[name] = read
                    entries.append((name, read))
                }
                if writesJSON { try writeIndexes(entries, wids: true) }
                return nil
            } catch {
                return "the shard indexes in \(folder ?? name): \(error)"
            }
        }
    }

    /// Writes `tar`'s `.idx`, or removes it for a tar without samples (`idx` nil), which wds2idx refuses.
    private func writeIdx(of tar: String, _ idx: String?) throws(DatasetFormatError) {
        let idxName = String(tar.dropLast(4)) + ".idx"
        if let idx { try write(idxName, idx) } else { sink.remove(idxName) }
    }

    /// A tar this process wrote (``IndexingSink``): its entry and `.idx`, for the next update; in a folder with the
    /// file's size and time as it was closed, which that update checks. `members` nil: not a tar the walker could read.
    func wrote(_ tar: String, size: Int, md5: String, members: [TarMembers.Member]?) {
        guard let members, let stamp = IndexedTars(folder: folder).stamp(tar), stamp.size ?? size == size else { return }
        let (entry, idx) = Self.entry(members, size: size, md5: md5, modified: stamp.modified)
        known.withLock { $0[tar] = entry }
        pendingIdx.withLock { $0[tar] = idx }
    }

    /// The shards an earlier run's `shardindex.json` lists (read from the store before this run writes), for those
    /// this run does not write again.
    func adopt(_ data: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any],
              let list = object["shardlist"] as? [[String: Any]] else { return }
        known.withLock { known in
            for shard in list {
                guard let url = shard["url"] as? String, let samples = shard["nsamples"] as? Int,
                      let size = shard["filesize"] as? Int, let md5 = shard["md5sum"] as? String, known[url] == nil else { continue }
                known[url] = Entry(samples: samples, fileSize: size, md5: md5, modified: [])
            }
        }
    }

    /// `wids`: also `shardindex.json` (tars only).
    private func writeIndexes(_ entries: [(tar: String, entry: Entry)], wids: Bool) throws(DatasetFormatError) {
        let samples = entries.map { $0.entry.samples }
        try write("sizes.json", Dictionary(uniqueKeysWithValues: entries.map { ($0.tar, $0.entry.samples) }))
        try write("_info.json", [
            "name": name,
            "splits": ["train": ["name": "train", "num_samples": samples.reduce(0, +),
                                 "filenames": entries.map(\.tar), "shard_lengths": samples] as [String: Any]],
        ] as [String: Any])
        guard wids else { return }
        try write("shardindex.json", [
            "__kind__": "wids-shard-index-v1",
            "wids_version": 1,
            "name": name,
            "shardlist": entries.map { tar, entry in
                ["url": tar, "md5sum": entry.md5, "nsamples": entry.samples, "filesize": entry.fileSize] as [String: Any]
            },
        ] as [String: Any])
    }

    private func write(_ name: String, _ text: String) throws(DatasetFormatError) {
        let handle = try sink.create(name)
        try handle.write(text)
        try handle.close()
    }

    /// A JSON object, keys sorted, indented.
    private func write(_ name: String, _ object: Any) throws(DatasetFormatError) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
            throw .invalidSchema("\(name): not JSON")
        }
        try write(name, String(decoding: data, as: UTF8.self) + "\n")
    }

    /// The tar's samples, MD5 and wds2idx index (nil when it holds no file), read from its headers. The file is
    /// read once, in chunks of 1 MiB, for the headers and the MD5 together: a shard of any size costs that much
    /// memory (mapped whole, a 60 MB tar added 60 MB to the run's resident size).
    static func read(_ path: String, size: Int, modified: [Int]) -> (Entry, String?)? {
        guard let fd = try? Syscall.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { Syscall.closeQuietly(fd) }
        let md5 = DigestStream(.md5)
        var walker = TarMembers.Walker()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count: Int
            do { count = try buffer.withUnsafeMutableBytes { raw throws(SystemError) in try Syscall.read(fd, into: raw, path: path) } } catch {
                return nil
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { raw in
                let chunk = UnsafeRawBufferPointer(rebasing: raw[0..<count])
                md5.update(chunk)
                walker.feed(chunk)
            }
        }
        guard let members = walker.finish() else { return nil }
        return entry(members, size: size, md5: md5.hex(), modified: modified)
    }

    /// A tar's entry and wds2idx index (nil when it holds no file) from its members.
    static func entry(_ members: [TarMembers.Member], size: Int, md5: String, modified: [Int]) -> (Entry, String?) {
        // wds2idx's bundles: consecutive members with the same base name (up to the first dot).
        var bundles: [[(member: TarMembers.Member, ext: Substring)]] = []
        var last: Substring?
        for member in members {
            let (stem, ext) = stemAndExtension(member.name)
            if stem.isEmpty || stem.hasSuffix("/") { continue }
            if stem == last { bundles[bundles.count - 1].append((member, ext)) } else { bundles.append([(member, ext)]); last = stem }
        }
        var idx: String?
        if !bundles.isEmpty {
            var text = "v1.2 \(bundles.count)\n"
            for bundle in bundles {
                for (k, item) in bundle.enumerated() {
                    if k > 0 { text += " " }
                    text += item.ext
                    text += " \(item.member.offset) \(item.member.size) "
                    text += item.member.name
                }
                text += "\n"
            }
            idx = text
        }
        return (Entry(samples: bundles.count, fileSize: size, md5: md5, modified: modified), idx)
    }

    /// A member's stem (its path up to the first dot of its last component) and extension (what follows that dot;
    /// empty without one), as wds2idx splits them. An ASCII name is split on its bytes; another on its characters.
    static func stemAndExtension(_ name: String) -> (stem: Substring, ext: Substring) {
        let utf8 = name.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            let slash = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
            guard let dot = utf8[slash...].firstIndex(of: UInt8(ascii: ".")) else { return (name[...], "") }
            return (name[..<dot], name[utf8.index(after: dot)...])
        }
        let base = name.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = base.firstIndex(of: ".") else { return (name[...], "") }
        return (name.dropLast(base.distance(from: dot, to: base.endIndex)), base[base.index(after: dot)...])
    }
}
