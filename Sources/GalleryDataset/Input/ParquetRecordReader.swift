import DatasetFormats

/// `--input-format parquet`: the URL lists the field publishes (LAION, DataComp, COYO), read row group by
/// row group through ``ParquetFileReader``. Only the columns the job keeps are read (``wanted``, set once
/// the columns are checked): a LAION file's embedding columns, and any other column, are never read.
/// Memory: one row group of the kept columns at a time.
final class ParquetRecordReader: InputRecordReader {
    let file: ParquetFileReader
    let columns: [String]
    /// The columns to read; nil: every readable column (until the shard reader says which it keeps).
    var wanted: [String]?
    private var group = -1
    private var values: [[ParquetReadValue]] = []
    private var names: [String] = []
    private var row = 0
    private var rowsBefore = 0
    /// Row groups decoded so far (a skipped row group is never read).
    private(set) var rowGroupsRead = 0

    init(path: String) throws(DatasetError) {
        do { file = try ParquetFileReader(path: path) } catch {
            throw .unreadableInput(path: path, reason: error.reason)
        }
        columns = file.columns.filter(\.isReadable).map(\.name)
    }

    func next() throws(DatasetError) -> InputRecord? {
        while values.first.map({ row >= $0.count }) ?? true {
            if group >= 0 { rowsBefore += file.rowGroupRowCounts[group] }
            group += 1
            guard group < file.rowGroupRowCounts.count else { return nil }
            try load(group)
            row = 0
        }
        var fields: [String: InputValue] = [:]
        for (i, name) in names.enumerated() { fields[name] = InputValue(values[i][row]) }
        defer { row += 1 }
        return InputRecord(fields: fields, problem: nil, line: rowsBefore + row + 1)
    }

    /// Skips `count` rows by the footer's row counts: a row group wholly inside them is never read, so a
    /// `--shard K/N` process reads only the row groups that hold its own shards' rows.
    func skip(_ count: Int) throws(DatasetError) -> Int {
        var left = count
        while left > 0 {
            if let loaded = values.first, row < loaded.count {
                let step = min(left, loaded.count - row)
                row += step
                left -= step
                continue
            }
            if group + 1 >= file.rowGroupRowCounts.count { break }
            if group >= 0 { rowsBefore += file.rowGroupRowCounts[group] }
            group += 1
            row = 0
            values = []
            let rows = file.rowGroupRowCounts[group]
            if rows <= left {
                left -= rows
                // Left unread and marked passed: the next step moves beyond it.
                values = [[]]
            } else {
                try load(group)
                row = left
                left = 0
            }
        }
        return count - left
    }

    /// Decodes row group `index` of the kept columns into ``values``.
    private func load(_ index: Int) throws(DatasetError) {
        names = (wanted ?? columns).filter(columns.contains)
        do { values = try file.readRowGroup(index, columns: names) } catch {
            throw .unreadableInput(path: file.path, reason: error.reason)
        }
        rowGroupsRead += 1
        // No kept column in the file (the column check refuses that first): rows with no fields, each failing.
        if names.isEmpty { values = [Array(repeating: .null, count: file.rowGroupRowCounts[index])] }
    }
}

extension InputValue {
    /// A Parquet value as the input value img2dataset's pyarrow reading would give: text for strings,
    /// numbers and booleans as themselves.
    init(_ value: ParquetReadValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int32(let n): self = .int(Int64(n))
        case .int64(let n): self = .int(n)
        case .float(let x): self = .double(Double(x))
        case .double(let x): self = .double(x)
        case .bytes: self = .string(value.string ?? "")
        case .list(let items): self = .list(items.map(InputValue.init))
        }
    }
}
