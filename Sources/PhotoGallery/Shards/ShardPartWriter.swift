import Foundation
import Glibc
import GallerySync

/// Writes a finished shard's part of the manifest: its photo lines, then its summary, each
/// published whole by rename, the summary last so that its presence means the part is complete.
struct ShardPartWriter {
    var layout: ShardLayout
    var source: String
    /// Decodes the journal's entries (a run passes its worker pool).
    var parallel: any ParallelRunner = DispatchParallel()

    /// Writes the part for `journal` (the shard's journal, read one entry at a time), with the comments
    /// of each photo and the counts of the run that finished the shard, started at `started`.
    func write(_ journal: Journal, comments: (Int) -> [Comment]?, run: GalleryRunSummary,
               started: Date, finished: Date = Date()) throws(GalleryError) {
        let lines = try StreamedFile(path: layout.folder + "/" + layout.photosPath)
        var summary = ShardSummary(
            shard: layout.shard.index, shards: layout.shard.count, source: source, photos: 0, photosOK: 0,
            photosFailed: 0, bytes: 0, bytesDownloaded: run.bytesDownloaded, pagesFetched: run.pagesFetched,
            pagesFailed: run.pagesFailed, thumbnailsMade: run.thumbnailsMade,
            started: started.formatted(.iso8601), finished: finished.formatted(.iso8601),
            durationSeconds: (finished.timeIntervalSince(started) * 1000).rounded() / 1000,
            failuresByReason: [:], sourceError: run.sourceError)
        // By page (stable): a journal resumed after the listing changed may have seen pages out of order.
        try journal.forEachEntry(byPage: true, parallel: parallel) { entry throws(GalleryError) in
            let line: [UInt8]
            do { line = try entry.shardLine(comments: comments(entry.metadata.id)) } catch let error as JSONText.NonFinite {
                throw .encoding(path: lines.path, reason: error.reason(photo: entry.metadata.id))
            } catch {
                throw .encoding(path: lines.path, reason: String(describing: error))
            }
            try lines.write(line + [UInt8(ascii: "\n")])
            summary.photos += 1
            if entry.isComplete {
                summary.photosOK += 1
                summary.bytes += Int64(entry.original?.bytes ?? 0)
            } else if entry.isOptedOut {
                summary.photosOptedOut = (summary.photosOptedOut ?? 0) + 1
            } else {
                summary.photosFailed += 1
                summary.failuresByReason[ShardSummary.reasonClass(entry.failure ?? GalleryManifest.incompleteReason), default: 0] += 1
            }
        }
        try lines.commit()
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let bytes: Data
        do { bytes = try pretty.encode(summary) } catch {
            throw .encoding(path: layout.summaryPath, reason: String(describing: error))
        }
        try AtomicFile.write(bytes, to: layout.folder + "/" + layout.summaryPath)
    }
}
