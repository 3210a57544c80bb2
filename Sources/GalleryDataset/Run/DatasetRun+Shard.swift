import DatasetFormats
import Foundation
import GalleryImaging
import GalleryRunner
import GallerySync
import GalleryTransfer
import Synchronization

extension DatasetRun {
    /// One shard: its rows fetched and processed concurrently, written as they finish (img2dataset writes in
    /// completion order too), then the stats. A shard that cannot be written is reported and left without its
    /// `_stats.json`, so the next run redoes it. Rows an earlier run finished (``ShardWork/kept(_:)``) are written
    /// first, as they are. A stop ends the shard with the rows that finished (``closeStopped(_:)``). `started`
    /// is called once its last row has started (the next shard may start then).
    func runShard(_ work: ShardWork, schema: DatasetSchema, summary: Locked<DatasetSummary>,
                  observer: (any DatasetRunObserver)?, started: @Sendable () async -> Void = {}) async {
        let id = work.id
        let name = options.shardName(id)
        observer?.shardStarted(name: name, rows: work.rows.count)
        let start = Date()
        let state: Locked<ShardTally>
        do {
            state = Locked(ShardTally(writer: try DatasetShardWriter(
                sink: shardSink, shardName: name, format: options.outputFormat, schema: schema.columns,
                imageExtension: options.image.encodeFormat.rawValue, writesCaptions: options.columns.captionColumn != nil)))
        } catch {
            summary.withLock { $0.failedShards.append("\(name): \(error)") }
            return
        }
        let fetched = writeKeptRows(of: work, schema: schema, into: state, observer: observer)
        let held = HeldRows()
        let record: @Sendable (ReadyRow) -> Void = { ready in
            let sample = DatasetSample(key: ready.key, metadata: schema.values(row: ready.row, key: ready.key, outcome: ready.outcome),
                                       image: ready.outcome.image, caption: ready.row.caption)
            state.withLock { $0.write(sample, ready.outcome) }
            observer?.rowFinished(failed: ready.outcome.status != .success)
        }
        var rows = fetched.makeIterator()
        await runner.forEach(window: options.jobs + 2 * pool.width, next: { () async throws(Never) -> DatasetRow? in
            if let row = rows.next() { return row }
            await started()
            return nil
        }) { row in
            let key = self.key(of: row, shard: id)
            let outcome = await self.work(row)
            // After a stop, a row that did not succeed was cut short (its download abandoned): it is not recorded,
            // and the next run fetches it.
            if self.runner.isStopping, outcome.status != .success { return }
            // A placeholder's row fails; one that may become one waits for the shard's close (DatasetRun+Verify).
            for ready in self.admit(ReadyRow(row: row, key: key, outcome: outcome), held: held) { record(ready) }
        }
        for ready in release(held) { record(ready) }
        finish(work, name: name, started: start, state: state, summary: summary, observer: observer)
    }

    /// Ends a shard whose rows are all done or abandoned: a writer's failure is reported, a stopped shard keeps
    /// the rows that finished (``closeStopped(_:)``), and a whole one gets its stats, then counts in the summary.
    private func finish(_ work: ShardWork, name: String, started start: Date, state: Locked<ShardTally>,
                        summary: Locked<DatasetSummary>, observer: (any DatasetRunObserver)?) {
        let end = Date()
        let tally = state.withLock { $0.counts }
        if let failure = tally.failure {
            summary.withLock { $0.failedShards.append("\(name): \(failure)") }
            return
        }
        if tally.rows < work.rows.count {
            closeStopped(ShardClose(name: name, state: state, tally: tally, summary: summary))
            return
        }
        var stats = ShardStats(count: work.rows.count, successes: tally.successes, failedToDownload: tally.failedToDownload,
                               failedToResize: tally.failedToResize,
                               startTime: start.timeIntervalSince1970, endTime: end.timeIntervalSince1970,
                               statusDict: tally.statusDict)
        stats.optedOut = tally.optedOut
        // A rewritten shard (--retry-failed) loses its old stats first: killed while its files are renamed into
        // place, it is redone whole by the next run rather than taken for done with files of two runs.
        if work.previous != nil, !work.keepsFailures { sink.remove("\(name)_stats.json") }
        let finishFailure: String? = state.withLock { tally in
            do { try tally.writer.finish(stats: stats) } catch { return "\(error)" }
            return nil
        }
        if let finishFailure {
            summary.withLock { $0.failedShards.append("\(name): \(finishFailure)") }
            return
        }
        // Done: a partial shard this run completed is no longer marked so (the stats file, written last, rules).
        if work.keepsFailures { sink.remove(DatasetShardWriter.partialName(name)) }
        let hint: String? = summary.withLock {
            $0.add(tally)
            $0.shardsWritten += 1
            return $0.failureHint
        }
        if let hint, !warnedOfFailures.exchange(true, ordering: .relaxed) { observer?.warning(hint) }
        observer?.shardFinished(name: name, count: work.rows.count, successes: tally.successes)
        shardIndexes?.counted(name, samples: tally.successes)
        shardIndexes?.update(finished: name)
    }

    /// Writes the rows an earlier run finished (``ShardWork/kept(_:)``) as the shard has them, image bytes
    /// unchanged, and returns the rows to fetch.
    private func writeKeptRows(of work: ShardWork, schema: DatasetSchema, into state: Locked<ShardTally>,
                               observer: (any DatasetRunObserver)?) -> [DatasetRow] {
        guard let previous = work.previous else { return work.rows }
        var fetched: [DatasetRow] = []
        for row in work.rows {
            let key = key(of: row, shard: work.id)
            guard let found = work.kept(key) else {
                fetched.append(row)
                continue
            }
            let kept = unlessPlaceholder(found, schema: schema)
            var image: [UInt8]?
            if kept.status == .success {
                do throws(DatasetError) { image = try previous.image(key) } catch {
                    state.withLock { $0.counts.failure = $0.counts.failure ?? "\(error)" }
                    continue
                }
            }
            let outcome = RowOutcome(status: kept.status, errorMessage: kept.errorMessage)
            state.withLock { $0.write(DatasetSample(key: key, metadata: kept.metadata, image: image, caption: row.caption), outcome) }
            observer?.rowFinished(failed: outcome.status != .success)
        }
        return fetched
    }

    /// A shard a stop cut short: closed with the rows that finished, marked partial, where the next run can read it
    /// back (``resumesPartialShards``); elsewhere left without stats, to be redone whole.
    private func closeStopped(_ shard: ShardClose) {
        guard resumesPartialShards else {
            shard.summary.withLock { $0.unfinishedShards += 1 }
            return
        }
        let failure: String? = shard.state.withLock { tally in
            do { try tally.writer.finishPartial(rows: shard.tally.rows) } catch { return "\(error)" }
            return nil
        }
        shard.summary.withLock {
            if let failure {
                $0.failedShards.append("\(shard.name): \(failure)")
            } else {
                $0.add(shard.tally)
                $0.partialShards += 1
            }
        }
    }

    /// One row: img2dataset's order of checks (download, hash to verify, image), its messages. A large body
    /// waits for a worker in its spool file (``RowSpool``), read mapped, and the file goes when the row is done.
    func work(_ row: DatasetRow) async -> RowOutcome {
        if let source = row.reshape { return await reshapeWork(row, source) }
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
        let expected = (hash: row.expectedHash, phash: row.expectedPHash)
        let boxes = row.boxes
        let outcome = try? await pool.run { () -> RowOutcome in
            switch body {
            case .memory(let bytes):
                return bytes.withUnsafeBytes { raw in
                    Self.process(raw, array: bytes, processor: processor, options: options, expected: expected, boxes: boxes)
                }
            case .file(let path):
                let file: MappedFile
                do { file = try MappedFile(path: path) } catch { return .failed(.failedToDownload, "<urlopen error \(error)>") }
                return file.withUnsafeBytes { raw in
                    Self.process(raw, array: nil, processor: processor, options: options, expected: expected, boxes: boxes)
                }
            }
        }
        return outcome ?? .failed(.failedToResize, "cancelled")
    }

    /// The hash, the check against the expected one (its pHash behind it: ``HashCheck``), the image and its
    /// EXIF, from the body's bytes (in memory as `array`, or mapped).
    private static func process(_ body: UnsafeRawBufferPointer, array: [UInt8]?, processor: DatasetImageProcessor,
                                options: DatasetOptions, expected: (hash: String?, phash: String?), boxes: [[Double]]?) -> RowOutcome {
        let hash = options.computeHash?.hex(body)
        let check = HashCheck(options: options, hash: hash, expected: expected.hash, expectedPHash: expected.phash)
        if check.failsOnBytes { return .failed(.failedToDownload, HashCheck.mismatch) }
        switch processor.process(body, copying: array, boxes: boxes, perceptualHash: options.recordsPHash) {
        case .failure(let refusal): return check.refused(refusal)
        case .success(let image):
            guard case .pass(let verifiedBy) = check.verdict(image.phash) else { return .failed(.failedToDownload, HashCheck.mismatch) }
            var outcome = RowOutcome(status: .success, image: image.bytes, width: image.width, height: image.height,
                                     originalWidth: image.originalWidth, originalHeight: image.originalHeight,
                                     exif: options.extractExif ? ExifJSON.json(for: body) : nil, hash: hash)
            outcome.phash = image.phash?.hex
            outcome.verifiedBy = verifiedBy
            if options.verification.placeholders != nil { outcome.digest = hash ?? Digest.sha256.hex(body) }
            return outcome
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
    /// The rows that did not succeed, by why.
    var classes: [FailureClass: Int] = [:]
    /// The rows written.
    var rows: Int { successes + failedToDownload + failedToResize + optedOut }

    mutating func add(_ outcome: RowOutcome) {
        switch outcome.status {
        case .success: successes += 1
        case .failedToDownload: failedToDownload += 1
        case .failedToResize: failedToResize += 1
        case .optedOut: optedOut += 1
        }
        if let kind = FailureClass(status: outcome.status, message: outcome.errorMessage) { classes[kind, default: 0] += 1 }
        let status = outcome.errorMessage ?? "success"
        if let i = statusIndex[status] { statusDict[i].count += 1 } else {
            statusIndex[status] = statusDict.count
            statusDict.append((status, 1))
        }
    }
}

/// What ``DatasetRun/closeStopped(_:)`` needs of a shard.
struct ShardClose {
    let name: String
    let state: Locked<ShardTally>
    let tally: ShardCounts
    let summary: Locked<DatasetSummary>
}

extension DatasetSummary {
    /// Counts a shard's written rows in.
    mutating func add(_ tally: ShardCounts) {
        rows += tally.rows
        successes += tally.successes
        failedToDownload += tally.failedToDownload
        failedToResize += tally.failedToResize
        self.tally.failed += tally.failedToDownload + tally.failedToResize
        optedOut += tally.optedOut
        failuresByClass.merge(tally.classes, uniquingKeysWith: +)
    }
}
