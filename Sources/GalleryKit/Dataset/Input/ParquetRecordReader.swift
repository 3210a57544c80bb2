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
            names = (wanted ?? columns).filter(columns.contains)
            do { values = try file.readRowGroup(group, columns: names) } catch {
                throw .unreadableInput(path: file.path, reason: error.reason)
            }
            row = 0
            // No kept column in the file (the column check refuses that first): rows with no fields, each failing.
            if names.isEmpty { values = [Array(repeating: .null, count: file.rowGroupRowCounts[group])] }
        }
        var fields: [String: InputValue] = [:]
        for (i, name) in names.enumerated() { fields[name] = InputValue(values[i][row]) }
        defer { row += 1 }
        return InputRecord(fields: fields, problem: nil, line: rowsBefore + row + 1)
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
        }
    }
}
