/// One row of a shard, ready for the per-row work: its kept input values (in `DatasetColumns.kept` order),
/// the URL, caption and expected hash taken from them, and why it cannot be fetched when its record was bad.
public struct DatasetRow: Sendable {
    /// The index in its shard (the key's last digits).
    public var index: Int
    public var values: [InputValue]
    public var url: String?
    public var caption: String?
    public var expectedHash: String?
    /// A malformed record, or a row without a URL: the row fails with this message, never the run.
    public var problem: String?
}

/// Cuts the input files into shards of `perShard` rows, as img2dataset does: each file starts a new shard
/// (its last shard may be short) and shard ids continue from file to file. Records are read as needed, so
/// only one shard's rows are in memory.
public final class ShardReader {
    public let format: DatasetInputFormat
    public let columns: DatasetColumns
    public let perShard: Int
    private let files: [String]
    private var fileIndex = -1
    private var reader: (any InputRecordReader)?
    private var kept: [(output: String, input: String)]
    private var nextShard: Int

    /// The file the current shard comes from (for messages).
    public private(set) var currentFile = ""

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

    /// The next shard's id and rows, or nil when every file is read.
    public func next() throws(DatasetError) -> (id: Int, rows: [DatasetRow])? {
        while true {
            if reader == nil {
                fileIndex += 1
                guard fileIndex < files.count else { return nil }
                currentFile = files[fileIndex]
                let opened = try format.reader(path: currentFile)
                // A file whose first record is malformed has no known columns: its rows fail one by one.
                if !opened.columns.isEmpty || format.kind == .csv || format.kind == .tsv {
                    try columns.check(available: opened.columns, format: format, path: currentFile)
                }
                // A Parquet file reads only the columns kept (a LAION file's other columns never leave the disk).
                (opened as? ParquetRecordReader)?.wanted = kept.map(\.input)
                reader = opened
            }
            var rows: [DatasetRow] = []
            while rows.count < perShard, let record = try reader!.next() {
                rows.append(row(record, index: rows.count))
            }
            if rows.count < perShard { reader = nil }
            if rows.isEmpty { continue }
            defer { nextShard += 1 }
            return (nextShard, rows)
        }
    }

    private func row(_ record: InputRecord, index: Int) -> DatasetRow {
        let values = kept.map { record.fields[$0.input] ?? .null }
        let named = Dictionary(zip(kept.map(\.output), values), uniquingKeysWith: { a, _ in a })
        var problem = record.problem
        let url = named["url"]?.text
        if problem == nil, url == nil || url!.isEmpty {
            problem = "no URL in column '\(columns.urlColumn)' (record at line \(record.line) of \(currentFile))"
        }
        return DatasetRow(index: index, values: values, url: url, caption: named["caption"]?.text,
                          expectedHash: columns.verifyHash.flatMap { named[$0.algorithm]?.text }, problem: problem)
    }
}
