import DatasetFormats
import Foundation
import GalleryImaging
import GallerySync

extension DatasetRun {
    /// One shard: its rows fetched and processed concurrently, written as they finish (img2dataset writes in
    /// completion order too), then the stats. A shard that cannot be written is reported and left without its
    /// `_stats.json`, so the next run redoes it.
    func runShard(_ id: Int, rows: [DatasetRow], schema: DatasetSchema, previous: PreviousShard? = nil,
                  summary: Locked<DatasetSummary>, observer: (any DatasetRunObserver)?) async {
        let name = options.shardName(id)
        let start = Date()
        let state: Locked<ShardTally>
        do {
            state = Locked(ShardTally(writer: try DatasetShardWriter(
                sink: sink, shardName: name, format: options.outputFormat, schema: schema.columns,
                imageExtension: options.image.encodeFormat.rawValue, writesCaptions: options.columns.captionColumn != nil)))
        } catch {
            summary.withLock { $0.failedShards.append("\(name): \(error)") }
            return
        }
        let window = options.jobs + 2 * pool.width
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for row in rows {
                if running >= window { await group.next(); running -= 1 }
                running += 1
                group.addTask {
                    let key = self.options.key(shard: id, index: row.index)
                    let sample: DatasetSample, outcome: RowOutcome
                    if let kept = previous?.rows[key], kept.status != .failedToDownload {
                        // --retry-failed: the row as the shard has it, its image bytes unchanged.
                        var image: [UInt8]?
                        if kept.status == .success {
                            do throws(DatasetError) { image = try previous?.image(key) } catch {
                                state.withLock { $0.counts.failure = $0.counts.failure ?? "\(error)" }
                                return
                            }
                        }
                        outcome = RowOutcome(status: kept.status, errorMessage: kept.errorMessage)
                        sample = DatasetSample(key: key, metadata: kept.metadata, image: image, caption: row.caption)
                    } else {
                        outcome = await self.work(row)
                        sample = DatasetSample(key: key, metadata: schema.values(row: row, key: key, outcome: outcome),
                                               image: outcome.image, caption: row.caption)
                    }
                    state.withLock { $0.write(sample, outcome) }
                    observer?.rowFinished(failed: outcome.status != .success)
                }
            }
        }
        let end = Date()
        let tally = state.withLock { $0.counts }
        if let failure = tally.failure {
            summary.withLock { $0.failedShards.append("\(name): \(failure)") }
            return
        }
        var stats = ShardStats(count: rows.count, successes: tally.successes, failedToDownload: tally.failedToDownload,
                               failedToResize: tally.failedToResize,
                               startTime: start.timeIntervalSince1970, endTime: end.timeIntervalSince1970,
                               statusDict: tally.statusDict)
        stats.optedOut = tally.optedOut
        // A rewritten shard (--retry-failed) loses its old stats first: killed while its files are renamed into
        // place, it is redone whole by the next run rather than taken for done with files of two runs.
        if previous != nil { sink.remove("\(name)_stats.json") }
        let finishFailure: String? = state.withLock { tally in
            do { try tally.writer.finish(stats: stats) } catch { return "\(error)" }
            return nil
        }
        if let finishFailure {
            summary.withLock { $0.failedShards.append("\(name): \(finishFailure)") }
            return
        }
        summary.withLock {
            $0.rows += rows.count
            $0.successes += tally.successes
            $0.failedToDownload += tally.failedToDownload
            $0.failedToResize += tally.failedToResize
            $0.optedOut += tally.optedOut
            $0.shardsWritten += 1
        }
        observer?.shardFinished(name: name, count: rows.count, successes: tally.successes)
        shardIndexes?.update(finished: name)
    }

    /// One row: img2dataset's order of checks (download, hash to verify, image), its messages. A large body
    /// waits for a worker in its spool file (``RowSpool``), read mapped, and the file goes when the row is done.
    func work(_ row: DatasetRow) async -> RowOutcome {
        if let problem = row.problem { return .failed(.failedToDownload, problem) }
        let spool = self.spool?.spool()
        defer { spool.map { self.spool?.remove($0) } }
        let body: RowBody
        switch await fetcher.fetch(row.url ?? "", spool: spool) {
        case .failure(let failure): return .failed(OptOutGate.isOptOut(failure.message) ? .optedOut : .failedToDownload, failure.message)
        case .success(let fetched): body = fetched
        }
        let options = options
        let processor = processor
        let expected = row.expectedHash
        let boxes = row.boxes
        let verifies = options.columns.verifyHash != nil
        let outcome = try? await pool.run { () -> RowOutcome in
            switch body {
            case .memory(let bytes):
                return bytes.withUnsafeBytes { raw in
                    Self.process(raw, array: bytes, processor: processor, options: options, verifies: verifies, expected: expected, boxes: boxes)
                }
            case .file(let path):
                let file: MappedFile
                do { file = try MappedFile(path: path) } catch { return .failed(.failedToDownload, "<urlopen error \(error)>") }
                return file.withUnsafeBytes { raw in
                    Self.process(raw, array: nil, processor: processor, options: options, verifies: verifies, expected: expected, boxes: boxes)
                }
            }
        }
        return outcome ?? .failed(.failedToResize, "cancelled")
    }

    /// The hash, the check against the expected one, the image and its EXIF, from the body's bytes (in memory
    /// as `array`, or mapped).
    private static func process(_ body: UnsafeRawBufferPointer, array: [UInt8]?, processor: DatasetImageProcessor,
                                options: DatasetOptions, verifies: Bool, expected: String?, boxes: [[Double]]?) -> RowOutcome {
        let hash = options.computeHash?.hex(body)
        if verifies, hash != expected { return .failed(.failedToDownload, "hash mismatch") }
        switch processor.process(body, copying: array, boxes: boxes) {
        case .failure(let refusal): return .failed(.failedToResize, refusal.message)
        case .success(let image):
            return RowOutcome(status: .success, image: image.bytes, width: image.width, height: image.height,
                              originalWidth: image.originalWidth, originalHeight: image.originalHeight,
                              exif: options.extractExif ? ExifJSON.json(for: body) : nil, hash: hash)
        }
    }
}

/// A shard's writer and counts, behind one lock.
struct ShardTally {
    let writer: DatasetShardWriter
    var counts = ShardCounts()

    init(writer: DatasetShardWriter) { self.writer = writer }

    mutating func write(_ sample: DatasetSample, _ outcome: RowOutcome) {
        guard counts.failure == nil else { return }
        do { try writer.write(sample) } catch {
            counts.failure = "\(error)"
            return
        }
        counts.add(outcome)
    }
}

/// What a shard's rows came to, for its `_stats.json`.
struct ShardCounts: Sendable {
    var successes = 0
    var failedToDownload = 0
    var failedToResize = 0
    var optedOut = 0
    /// Each status or message with its count, in the order first seen (as Python's Counter dumps it).
    var statusDict: [(status: String, count: Int)] = []
    private var statusIndex: [String: Int] = [:]
    var failure: String?

    mutating func add(_ outcome: RowOutcome) {
        switch outcome.status {
        case .success: successes += 1
        case .failedToDownload: failedToDownload += 1
        case .failedToResize: failedToResize += 1
        case .optedOut: optedOut += 1
        }
        let status = outcome.errorMessage ?? "success"
        if let i = statusIndex[status] { statusDict[i].count += 1 } else {
            statusIndex[status] = statusDict.count
            statusDict.append((status, 1))
        }
    }
}
