/// CSV and TSV records (RFC 4180 quoting: `"a, b"`, `""` for a quote), the first line naming the columns, one
/// record a line as pyarrow's reader takes them by default (no line breaks inside quotes), so a stray quote costs
/// one row, never the rest of the file. Blank lines are skipped. A record whose field count differs from the
/// header's, or whose quote is not closed on its line, is returned with its `problem` and the run goes on.
final class DelimitedReader: InputRecordReader {
    let columns: [String]
    private let lines: GzipLineReader
    private let separator: UInt8
    init(path: String, separator: UInt8) throws(DatasetError) {
        lines = try GzipLineReader(path: path)
        self.separator = separator
        guard let header = try lines.nextLine() else {
            throw .unreadableInput(path: path, reason: "empty file (a header line naming the columns is needed)")
        }
        var bytes = header
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        switch Self.split(bytes, separator: separator) {
        case .fields(let names): columns = names
        default: throw .unreadableInput(path: path, reason: "line 1 (the header) is not a valid \(separator == 9 ? "TSV" : "CSV") line")
        }
    }

    func next() throws(DatasetError) -> InputRecord? {
        while let line = try lines.nextLine() {
            if line.isEmpty { continue }
            let number = lines.lineNumber
            switch Self.split(line, separator: separator) {
            case .fields(let values):
                guard values.count == columns.count else {
                    return InputRecord(fields: [:], problem: "malformed \(kind) line \(number): expected \(columns.count) "
                        + "fields, found \(values.count)", line: number)
                }
                var fields: [String: InputValue] = [:]
                for (name, value) in zip(columns, values) { fields[name] = .string(value) }
                return InputRecord(fields: fields, problem: nil, line: number)
            case .openQuote:
                return InputRecord(fields: [:], problem: "malformed \(kind) line \(number): a quoted field is not closed on its line",
                                   line: number)
            case .malformed(let why):
                return InputRecord(fields: [:], problem: "malformed \(kind) line \(number): \(why)", line: number)
            }
        }
        return nil
    }

    private var kind: String { separator == 9 ? "TSV" : "CSV" }

    enum Split: Equatable { case fields([String]), openQuote, malformed(String) }

    /// Splits one record; `.openQuote` when a quoted field runs past the end (the next line continues it).
    static func split(_ bytes: [UInt8], separator: UInt8) -> Split {
        var fields: [String] = []
        var field: [UInt8] = []
        var i = 0
        var quoted = false
        var wasQuoted = false
        while i < bytes.count {
            let b = bytes[i]
            if quoted {
                if b == 34 {
                    if i + 1 < bytes.count, bytes[i + 1] == 34 { field.append(34); i += 2; continue }
                    quoted = false
                } else {
                    field.append(b)
                }
            } else if b == separator {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
                wasQuoted = false
            } else if b == 34, field.isEmpty, !wasQuoted {
                quoted = true
                wasQuoted = true
            } else if wasQuoted {
                return .malformed("text after a closing quote")
            } else {
                field.append(b)
            }
            i += 1
        }
        if quoted { return .openQuote }
        fields.append(String(decoding: field, as: UTF8.self))
        return .fields(fields)
    }
}
