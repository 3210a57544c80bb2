/// One row of a shard, ready for the per-row work: its kept input values (in `DatasetColumns.kept` order),
/// the URL, caption and expected hash taken from them, and why it cannot be fetched when its record was bad.
public struct DatasetRow: Sendable {
    /// The index in its shard (the key's last digits).
    public var index: Int
    public var values: [InputValue]
    public var url: String?
    public var caption: String?
    public var expectedHash: String?
    /// The `--verify-phash` column's value (16 hex digits when it holds a pHash).
    public var expectedPHash: String?
    /// The `--bbox-col` boxes to blur (nil: none, or the column's value is not a list of boxes).
    public var boxes: [[Double]]?
    /// A malformed record, or a row without a URL: the row fails with this message, never the run.
    public var problem: String?
    /// The sample of a finished dataset the row comes from (its image is not fetched).
    public var reshape: DatasetReshapeSource? = nil
}

/// Cuts the input files into shards of `perShard` rows, as img2dataset does: each file starts a new shard
/// (its last shard may be short) and shard ids continue from file to file. Records are read as needed, so
/// only one shard's rows are in memory. A finished dataset's shards (``DatasetInputFormat/Kind/isDataset``) are
/// one stream instead: a new shard takes rows from as many old ones as it needs.
public final class ShardReader {
    public let format: DatasetInputFormat
    public let columns: DatasetColumns
    public let perShard: Int
    private let files: [String]
    private var fileIndex = -1
    private var reader: (any InputRecordReader)?
    private var kept: [(output: String, input: String)]
    private var nextShard: Int
    /// Row groups read from the files before the current one.
    private var groupsBefore = 0
    /// Rows of an old shard passed over by its count (``sampleCount``) that belong to the shards after the last
    /// one returned.
    private var carried = 0

    /// The file the current shard comes from (for messages).
    public private(set) var currentFile = ""
    /// Whether a shard's rows are wanted (by id); an unwanted shard is passed over unmade, its rows counted
    /// only (a Parquet file's row groups that hold none of the wanted rows are not even read).
    public var readsRows: (Int) -> Bool = { _ in true }
    /// Rows kept (`--where`, `--uid-list`); nil: every row.
    public var subset: DatasetSubset?
    /// Row groups of Parquet input decoded so far.
    public private(set) var rowGroupsRead = 0
    /// Opens a file of the list (nil: ``DatasetInputFormat``'s reader of a local file); a dataset in a store
    /// copies the shard first (``StoredDataset``).
    /// Its second argument says whether the file after it will be read (rather than passed over by its count).
    var opener: ((String, Bool) async throws(DatasetError) -> any InputRecordReader)?
    /// The records an old dataset's shard holds, when known without opening it (``StoredDataset/sampleCount(_:runner:)``):
    /// a shard none of whose rows are wanted is then counted, not opened (nor copied from its store).
    var sampleCount: ((String) async -> Int?)?

    public init(files: [String], format: DatasetInputFormat, columns: DatasetColumns, perShard: Int,
                firstShard: Int = 0) {
        self.files = files
        self.format = format
        self.columns = columns
        self.perShard = perShard
        kept = columns.kept(for: format)
        nextShard = firstShard
    }

    /// The output names of the kept columns, in order.
    public var keptNames: [String] { kept.map(\.output) }

    /// The next shard's id, rows (none when ``readsRows`` refuses it) and row count, or nil when every
    /// file is read.
    public func next() async throws(DatasetError) -> (id: Int, rows: [DatasetRow], count: Int)? {
        // A finished dataset's shards are one stream, cut into new shards across its files.
        let spansFiles = format.kind.isDataset
        let wanted = readsRows(nextShard)
        var rows: [DatasetRow] = []
        var count = 0
        if carried > 0 {
            count = min(carried, perShard)
            carried -= count
            if count == perShard {
                defer { nextShard += 1 }
                return (nextShard, rows, count)
            }
        }
        while true {
            if reader == nil, !wanted, spansFiles, subset == nil, fileIndex + 1 < files.count, let sampleCount,
               let held = await sampleCount(files[fileIndex + 1]), !wantsRows(from: count, count: held) {
                // A whole old shard within rows another process (or an earlier run) makes: counted, not read. Rows
                // past this new shard's end belong to the next ones, none of them wanted either.
                fileIndex += 1
                currentFile = files[fileIndex]
                let room = perShard - count
                if held < room {
                    count += held
                    continue
                }
                count = perShard
                carried = held - room
                break
            }
            if reader == nil {
                fileIndex += 1
                guard fileIndex < files.count else { break }
                currentFile = files[fileIndex]
                let opened: any InputRecordReader
                if let opener {
                    opened = try await opener(currentFile, await readsFile(after: fileIndex, count: count))
                } else {
                    opened = try format.reader(path: currentFile)
                }
                // A file whose first record is malformed has no known columns: its rows fail one by one.
                if !opened.columns.isEmpty || format.kind == .csv || format.kind == .tsv {
                    try columns.check(available: opened.columns, format: format, path: currentFile)
                }
                // A Parquet file reads only the columns kept (a LAION file's other columns never leave the disk).
                (opened as? ParquetRecordReader)?.wanted = kept.map(\.input) + (subset?.columns ?? [])
                reader = try subset.map { subset throws(DatasetError) in try FilteredRecordReader(opened, subset: subset, path: currentFile) } ?? opened
            }
            guard let current = reader else { continue }
            if wanted {
                while rows.count < perShard, let record = try current.next() {
                    rows.append(row(record, index: rows.count))
                }
                count = rows.count
            } else {
                count += try current.skip(perShard - count)
            }
            if let parquet = current as? ParquetRecordReader { rowGroupsRead = groupsBefore + parquet.rowGroupsRead }
            if count < perShard {
                reader = nil
                groupsBefore = rowGroupsRead
                if count == 0 || spansFiles { continue }
            }
            break
        }
        if count == 0 { return nil }
        defer { nextShard += 1 }
        return (nextShard, rows, count)
    }

    /// Whether `count` rows starting `start` rows into the shard being made fall in a shard whose rows are wanted:
    /// the shard they start in or one they reach into.
    private func wantsRows(from start: Int, count: Int) -> Bool {
        let first = nextShard + start / perShard
        let last = nextShard + (start + max(count, 1) - 1) / perShard
        return (first...last).contains { readsRows($0) }
    }

    /// Whether the file after file `index` will be opened (rather than passed over by its count), when the shard
    /// being made has `count` rows before file `index`'s.
    private func readsFile(after index: Int, count: Int) async -> Bool {
        guard index + 1 < files.count else { return false }
        guard format.kind.isDataset, subset == nil, let sampleCount, let held = await sampleCount(files[index]),
              let next = await sampleCount(files[index + 1]) else { return true }
        return wantsRows(from: count + held, count: next)
    }

    private func row(_ record: InputRecord, index: Int) -> DatasetRow {
        let values = kept.map { record.fields[$0.input] ?? .null }
        let named = Dictionary(zip(kept.map(\.output), values), uniquingKeysWith: { a, _ in a })
        var problem = record.problem
        let url = named["url"]?.text
        if problem == nil, record.reshape == nil, url == nil || url!.isEmpty {
            problem = "no URL in column '\(columns.urlColumn)' (record at line \(record.line) of \(currentFile))"
        }
        return DatasetRow(index: index, values: values, url: url, caption: named["caption"]?.text,
                          expectedHash: columns.verifyHash.flatMap { named[$0.algorithm]?.text },
                          expectedPHash: columns.verifyPHash.flatMap { _ in named[DatasetVerification.phashColumn]?.text },
                          boxes: columns.bboxColumn.flatMap { named[$0]?.boxes }, problem: problem, reshape: record.reshape)
    }
}
