import Foundation
import Glibc

/// What a merge found and wrote.
public struct MergeReport: Sendable, Hashable {
    /// The job's shard count.
    public var shards = 0
    /// Shards with no trace in the folder.
    public var missing: [Int] = []
    /// Shards that began (their journal exists) but wrote no summary: running, killed, or interrupted.
    public var unfinished: [Int] = []
    /// Finished shards whose source could not be read, with the reason.
    public var sourceErrors: [Int: String] = [:]
    /// Photos in the gallery, and failed.
    public var photosOK = 0
    /// Photos that failed.
    public var photosFailed = 0
    /// Photos their site opted out of AI use (`--respect-opt-out`): not failures.
    public var photosOptedOut = 0
    /// Photos listed by more than one shard, written once.
    public var duplicates = 0
    /// Finished photos that are copies of another (`--duplicates`): in `gallery.json`, not in the index.
    public var copiesGrouped = 0

    /// Whether every shard finished and read its source.
    public var isComplete: Bool { missing.isEmpty && unfinished.isEmpty && sourceErrors.isEmpty }
}

/// `fetch-gallery merge OUT`: builds the gallery's index, photo pages and `gallery.json` from
/// every finished shard's part, downloading nothing.
///
/// The parts are read side by side, one line at a time, always taking the lowest listing page
/// next: each page belongs to one shard, so this is the listing order of a single run. A photo
/// listed by several shards is written once, as the first listing has it (as a single run
/// does). Memory holds one line per shard, the ids seen and the page names (to delete stale
/// pages); never a whole part. Running it again writes the same files.
public struct GalleryMerge: Sendable {
    /// The gallery folder the shards wrote into.
    public var folder: String
    /// The shard count, when known (to name shards that left no trace); else read from the parts.
    public var shards: Int?
    /// Title of the index page.
    public var title = "Gallery"
    /// Index page size and what the photo pages show (as the single run's ``GalleryWriter/pageOptions``).
    public var pageOptions = GalleryPageOptions()
    /// Where the index, pages and manifest go once written: the folder itself by default.
    public var store: (any GalleryStore)? = nil
    /// Shards (`K-of-N`) known to have begun although the folder holds no journal of theirs (their
    /// journals are in the store, not fetched for a merge).
    public var startedShards: Set<String> = []

    /// A merge of the shards in `folder`.
    public init(folder: String, shards: Int? = nil) {
        self.folder = folder
        self.shards = shards
    }

    /// Writes the gallery from the finished shards' parts (the unfinished ones are named in the report).
    public func run(generated: Date = Date()) throws(ShardError) -> MergeReport {
        let count = try shardCount()
        var report = MergeReport(shards: count)
        var finished: [(index: Int, summary: ShardSummary)] = []
        for index in 0..<count {
            let layout = ShardLayout(folder: folder, shard: try ShardSpec(index: index, count: count))
            let summaryPath = folder + "/" + layout.summaryPath
            guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: summaryPath)) else {
                if layout.hasStarted || startedShards.contains(layout.shard.fileStem) { report.unfinished.append(index) } else { report.missing.append(index) }
                continue
            }
            let summary: ShardSummary
            do { summary = try JSONDecoder().decode(ShardSummary.self, from: bytes) } catch {
                throw .unreadablePart(path: summaryPath, reason: "not a shard summary (\(error))")
            }
            if let problem = summary.sourceError { report.sourceErrors[index] = problem }
            finished.append((index, summary))
        }
        /// Opens every finished shard's part, at its first photo.
        func open() throws(ShardError) -> [(reader: PartReader, summary: ShardSummary, head: ShardLine?)] {
            var readers: [(reader: PartReader, summary: ShardSummary, head: ShardLine?)] = []
            for (index, summary) in finished {
                let layout = ShardLayout(folder: folder, shard: try ShardSpec(index: index, count: count))
                let reader = try PartReader(path: folder + "/" + layout.photosPath)
                readers.append((reader, summary, try reader.next()))
            }
            return readers
        }
        var readers = try open()
        let source = readers.first?.summary.source ?? ""
        let output: GalleryOutput
        do { output = try GalleryOutput(folder: folder, title: title, source: source, generated: generated,
                                            options: pageOptions, store: store) } catch {
            throw .gallery(error)
        }
        // Copies of one photo are grouped before writing: up to four more passes over the parts, in the
        // same order as the writing one (the grouping's, then the grouped photos' credits).
        try output.findDuplicates { (visit) throws(ShardError) in
            var again = try open()
            _ = try Self.walk(&again) { photo throws(ShardError) in visit(photo.entry) }
        }
        report.duplicates = try Self.walk(&readers) { photo throws(ShardError) in
            do throws(GalleryError) { try output.add(photo.entry, comments: photo.comments) } catch { throw .gallery(error) }
        }
        for (reader, summary, _) in readers where reader.count != summary.photos {
            throw .unreadablePart(path: reader.path, reason: "it holds \(reader.count) photos, its summary says \(summary.photos)")
        }
        do { try output.finish() } catch { throw .gallery(error) }
        report.photosOK = output.done
        report.photosFailed = output.failed - output.optedOut
        report.photosOptedOut = output.optedOut
        report.copiesGrouped = output.grouped
        return report
    }

    /// Hands `body` each photo of the parts in listing order, always the lowest page next; a photo listed
    /// by several shards once, as the first listing has it. Returns how many listings were skipped so.
    private static func walk(_ readers: inout [(reader: PartReader, summary: ShardSummary, head: ShardLine?)],
                             _ body: (ShardLine) throws(ShardError) -> Void) throws(ShardError) -> Int {
        var seen: Set<Int> = [], skipped = 0
        while let next = readers.indices.filter({ readers[$0].head != nil })
            .min(by: { readers[$0].head!.page < readers[$1].head!.page }) {
            let photo = readers[next].head!
            readers[next].head = try readers[next].reader.next()
            guard seen.insert(photo.entry.metadata.id).inserted else {
                skipped += 1
                continue
            }
            try body(photo)
        }
        return skipped
    }

    /// The count given, else the one every part and shard folder in the gallery names.
    private func shardCount() throws(ShardError) -> Int {
        if let shards {
            guard shards >= 1, shards <= ShardSpec.maximumCount else { throw .badCount(shards) }
            return shards
        }
        var counts: Set<Int> = []
        let parts = POSIX.names(in: folder + "/" + ShardLayout.partsFolder) ?? []
        let started = (POSIX.names(in: folder + "/.fetch-gallery/shards") ?? []) + startedShards
        for name in parts + started {
            let stem = name.split(separator: ".").first.map(String.init) ?? name
            let pieces = stem.split(separator: "-")
            if pieces.count == 3, pieces[1] == "of", Int(pieces[0]) != nil, let count = Int(pieces[2]) { counts.insert(count) }
        }
        guard !counts.isEmpty else { throw .noParts(folder: folder) }
        guard counts.count == 1 else { throw .mixedCounts(folder: folder, counts: counts.sorted()) }
        return counts.first!
    }
}
