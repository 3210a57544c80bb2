/// A JSON array of objects (`[{"url": ...}, ...]`, as pandas' `read_json` takes it), streamed: the scanner
/// cuts the array into its elements by tracking strings and nesting, and each element is parsed alone, so a
/// broken element fails its own row only. The columns are the first good record's keys.
final class JSONArrayReader: InputRecordReader {
    private let input: GzipLineReader
    private var chunk: ArraySlice<UInt8> = []
    private var state = State.beforeArray
    private var element: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var index = 0
    private var first = FirstRecord(nil)
    var columns: [String] { first.columns }
    /// An element larger than this is cut off and reported malformed (a record is a few hundred bytes).
    static let maxElementBytes = 16 << 20

    private enum State { case beforeArray, betweenElements, inElement, done }

    init(path: String) throws(DatasetError) {
        input = try GzipLineReader(path: path)
        first = FirstRecord(try read())
    }

    func next() throws(DatasetError) -> InputRecord? {
        if let record = first.take() { return record }
        return try read()
    }

    private func read() throws(DatasetError) -> InputRecord? {
        while state != .done {
            if chunk.isEmpty {
                guard let more = try input.nextChunk() else { break }
                chunk = more
            }
            while let b = chunk.popFirst() {
                if let record = try step(b) { return record }
                if state == .done { return nil }
            }
        }
        if state == .inElement {
            state = .done
            index += 1
            return InputRecord(fields: [:], problem: "malformed JSON record \(index): the array ends inside it", line: index)
        }
        if state == .beforeArray {
            state = .done
            throw .unreadableInput(path: input.path, reason: "not a JSON array (empty file)")
        }
        return nil
    }

    private func step(_ b: UInt8) throws(DatasetError) -> InputRecord? {
        switch state {
        case .beforeArray:
            if Self.isSpace(b) { return nil }
            guard b == UInt8(ascii: "[") else {
                throw .unreadableInput(path: input.path, reason: "not a JSON array of records (it starts with '\(Character(Unicode.Scalar(b)))')")
            }
            state = .betweenElements
        case .betweenElements:
            if Self.isSpace(b) || b == UInt8(ascii: ",") { return nil }
            if b == UInt8(ascii: "]") { state = .done; return nil }
            state = .inElement
            element = []
            depth = 0
            inString = false
            escaped = false
            return try step(b)
        case .inElement:
            element.append(b)
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == 34 { inString = false }
            } else if b == 34 {
                inString = true
            } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                depth += 1
            } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                depth -= 1
            } else if depth == 0, b == UInt8(ascii: ",") {
                element.removeLast()
                return finishElement()
            }
            if depth <= 0, !inString, b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                if depth < 0 { element.removeLast(); state = .done; return finishElementIfAny() }
                return finishElement()
            }
            if element.count > Self.maxElementBytes {
                state = .done
                index += 1
                return InputRecord(fields: [:], problem: "malformed JSON record \(index): larger than 16 MiB", line: index)
            }
        case .done:
            return nil
        }
        return nil
    }

    private func finishElement() -> InputRecord {
        state = .betweenElements
        index += 1
        return JSONRecord.parse(element, what: "JSON record", number: index)
    }

    private func finishElementIfAny() -> InputRecord? {
        element.allSatisfy(Self.isSpace) ? nil : { index += 1; return JSONRecord.parse(element, what: "JSON record", number: index) }()
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }
}
