import Foundation

/// Which input rows a run keeps: `--where` conditions on a column (all must hold) and a `--uid-list` of
/// DataComp uids. Applied to every input format, before rows are cut into shards, so the new shards are full.
public struct DatasetSubset: Sendable {
    public var conditions: [DatasetCondition] = []
    /// The uids kept (sorted), matched against the ``uidColumn`` (32 hex digits, DataComp's `uid`).
    public var uids: UIDList?
    public var uidColumn = "uid"

    public init() {}

    public var isEmpty: Bool { conditions.isEmpty && uids == nil }

    /// The columns the subset reads.
    var columns: [String] { conditions.map(\.column) + (uids == nil ? [] : [uidColumn]) }

    func keeps(_ fields: [String: InputValue]) -> Bool {
        for condition in conditions where !condition.holds(fields[condition.column] ?? .null) { return false }
        if let uids {
            guard let text = fields[uidColumn]?.text, let uid = UIDList.UID(hex: text) else { return false }
            return uids.contains(uid)
        }
        return true
    }
}

/// One `--where` condition: `COLUMN OP VALUE`, OP one of `==`, `!=`, `>=`, `<=`, `>`, `<`. Ordering
/// operators compare numbers (the value must be one; a row whose column is not a number does not match);
/// `==` and `!=` compare numbers when both sides are numbers, else text (`true`/`false` for booleans,
/// `null` for a missing value). The value may be quoted ('a b' or "a b").
public struct DatasetCondition: Sendable, Equatable {
    public enum Operator: String, Sendable, CaseIterable { case equal = "==", notEqual = "!=", atLeast = ">=", atMost = "<=", greater = ">", less = "<" }
    public var column: String
    public var op: Operator
    public var value: String

    public init(parsing text: String) throws(DatasetError) {
        let usage = "--where '\(text)': expected COLUMN OP VALUE with OP one of ==, !=, >=, <=, >, < (e.g. 'width>=256', 'status==success')"
        // The first operator in the text, the two-character ones tried first at each position.
        var found: (Operator, String.Index, String.Index)?
        var i = text.startIndex
        search: while i < text.endIndex {
            for op in [Operator.equal, .notEqual, .atLeast, .atMost, .greater, .less] where text[i...].hasPrefix(op.rawValue) {
                found = (op, i, text.index(i, offsetBy: op.rawValue.count))
                break search
            }
            i = text.index(after: i)
        }
        guard let (op, start, end) = found else { throw .invalidOption(usage) }
        column = text[..<start].trimmingCharacters(in: .whitespaces)
        var value = text[end...].trimmingCharacters(in: .whitespaces)
        if value.count >= 2, let q = value.first, q == "'" || q == "\"", value.last == q { value = String(value.dropFirst().dropLast()) }
        else if value.hasPrefix("=") || value.hasPrefix("<") || value.hasPrefix(">") { throw .invalidOption(usage) }
        guard !column.isEmpty, column.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) else { throw .invalidOption(usage) }
        self.op = op
        self.value = value
        if ![.equal, .notEqual].contains(op), Double(value) == nil {
            throw .invalidOption("--where '\(text)': \(op.rawValue) compares numbers, and '\(value)' is not one")
        }
    }

    func holds(_ field: InputValue) -> Bool {
        let number: Double? = switch field {
        case .int(let n): Double(n)
        case .double(let d): d
        case .string(let s): Double(s)
        default: nil
        }
        let target = Double(value)
        switch op {
        case .equal, .notEqual:
            let same: Bool
            if let number, let target { same = number == target } else {
                same = (field.text ?? "null") == value || (field == .null && value == "None")
            }
            return op == .equal ? same : !same
        case .atLeast: return number.map { $0 >= target! } ?? false
        case .atMost: return number.map { $0 <= target! } ?? false
        case .greater: return number.map { $0 > target! } ?? false
        case .less: return number.map { $0 < target! } ?? false
        }
    }
}

/// An input reader that passes over the rows a ``DatasetSubset`` does not keep; refuses a file without the
/// columns the subset reads.
final class FilteredRecordReader: InputRecordReader {
    private let inner: any InputRecordReader
    private let subset: DatasetSubset
    var columns: [String] { inner.columns }

    init(_ inner: any InputRecordReader, subset: DatasetSubset, path: String) throws(DatasetError) {
        for column in subset.columns where !inner.columns.contains(column) {
            throw .missingColumn(path: path, column: column, available: inner.columns)
        }
        self.inner = inner
        self.subset = subset
    }

    func next() throws(DatasetError) -> InputRecord? {
        while let record = try inner.next() {
            // A malformed record has no fields to judge: it stays, and fails as its row.
            if record.problem != nil || subset.keeps(record.fields) { return record }
        }
        return nil
    }
}
