import Foundation

/// JSON Lines: one object per line; blank lines skipped. A line that is not a JSON object is returned with
/// its `problem`. The columns are the first good record's keys (peeked when the reader opens).
final class JSONLinesReader: InputRecordReader {
    private let lines: GzipLineReader
    private var first = FirstRecord(nil)
    var columns: [String] { first.columns }

    init(path: String) throws(DatasetError) {
        lines = try GzipLineReader(path: path)
        first = FirstRecord(try read())
    }

    func next() throws(DatasetError) -> InputRecord? {
        if let record = first.take() { return record }
        return try read()
    }

    private func read() throws(DatasetError) -> InputRecord? {
        while let line = try lines.nextLine() {
            if line.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
            return JSONRecord.parse(line, what: "JSONL line", number: lines.lineNumber)
        }
        return nil
    }
}

/// Turns the bytes of one JSON object into a record (shared by the JSONL and JSON array readers).
enum JSONRecord {
    static func parse(_ bytes: [UInt8], what: String, number: Int) -> InputRecord {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) } catch {
            return InputRecord(fields: [:], problem: "malformed \(what) \(number): not valid JSON", line: number)
        }
        guard let dictionary = object as? [String: Any] else {
            return InputRecord(fields: [:], problem: "malformed \(what) \(number): not a JSON object", line: number)
        }
        var fields: [String: InputValue] = [:]
        for (key, value) in dictionary { fields[key] = InputValue(json: value) }
        return InputRecord(fields: fields, problem: nil, line: number)
    }
}
