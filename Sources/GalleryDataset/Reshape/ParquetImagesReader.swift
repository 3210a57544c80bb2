import DatasetFormats

/// `--input-format parquet-images`: a dataset written with `--output-format parquet` (img2dataset's layout:
/// each `NNNNN.parquet` holds the metadata columns and the image bytes in a binary column named after the
/// encode format, `jpg`, `png`, `webp` or `avif`). Rows without an image (the old dataset's failures) are
/// passed over. Memory: one row group at a time (img2dataset writes 100 rows a group).
final class ParquetImagesReader: InputRecordReader {
    /// The columns read, and those a record shows (`url` added, null, when the old dataset has none).
    let columns: [String]
    private let readColumns: [String]
    private let file: ParquetFileReader
    private let imageColumn: String
    private var group = -1
    private var values: [[ParquetReadValue]] = []
    private var row = 0
    private var rowsBefore = 0

    init(path: String) throws(DatasetError) {
        do { file = try ParquetFileReader(path: path) } catch {
            throw .unreadableInput(path: path, reason: error.reason)
        }
        let readable = file.columns.filter(\.isReadable)
        guard let image = ["jpg", "png", "webp", "avif"].first(where: { name in
            readable.contains { $0.name == name && !$0.isString && $0.physicalType == "BYTE_ARRAY" }
        }) else {
            throw .unreadableInput(path: path, reason: "no image column (a binary jpg, png, webp or avif column, as --output-format parquet writes): "
                + "its columns are " + file.columns.map(\.name).joined(separator: ", "))
        }
        imageColumn = image
        let names = readable.map(\.name).filter { $0 != image }
        readColumns = names
        columns = names.contains("url") ? names : names + ["url"]
    }

    func next() throws(DatasetError) -> InputRecord? {
        while true {
            while values.first.map({ row >= $0.count }) ?? true {
                if group >= 0 { rowsBefore += file.rowGroupRowCounts[group] }
                group += 1
                guard group < file.rowGroupRowCounts.count else { return nil }
                do { values = try file.readRowGroup(group, columns: readColumns + [imageColumn]) } catch {
                    throw .unreadableInput(path: file.path, reason: error.reason)
                }
                row = 0
            }
            defer { row += 1 }
            guard case .bytes(let image) = values[readColumns.count][row] else { continue }
            var fields: [String: InputValue] = [:]
            for (i, name) in readColumns.enumerated() { fields[name] = InputValue(values[i][row]) }
            if fields["url"] == nil { fields["url"] = .null }
            let line = rowsBefore + row + 1
            var record = InputRecord(fields: fields, problem: nil, line: line)
            let key = fields["key"]?.text ?? String(line)
            record.reshape = DatasetReshapeSource(image: .bytes(image), key: key, fields: fields)
            return record
        }
    }
}
