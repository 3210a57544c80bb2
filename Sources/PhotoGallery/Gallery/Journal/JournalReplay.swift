import Foundation

/// The result of reading a journal file back.
public struct JournalReplay: Sendable, Hashable {
    /// The state the records describe.
    public var state: GalleryState
    /// Records read.
    public var records: Int
    /// Whether the last line had no newline and could not be read: a write cut short by a
    /// crash. Expected after SIGKILL, and harmless.
    public var tornTail: Bool
    /// 1-based numbers of other lines that could not be read and were skipped (a torn
    /// line from an earlier crash that later records were appended after, or a record
    /// type from a newer version). At worst the photo is processed again.
    public var skippedLines: [Int]
    /// Whether the file ends in the middle of a line, so an appender must start a new one.
    public var needsNewline: Bool

    /// Counts only, with an empty state (what ``Journal`` reports: it keeps no state in memory).
    init(records: Int, tornTail: Bool, skippedLines: [Int], needsNewline: Bool) {
        state = GalleryState()
        self.records = records
        self.tornTail = tornTail
        self.skippedLines = skippedLines
        self.needsNewline = needsNewline
    }

    /// Replays the journal bytes `data`.
    public init(data: Data) {
        let decoder = JSONDecoder()
        var state = GalleryState()
        var records = 0
        var skipped: [Int] = []
        var torn = false
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where !line.isEmpty {
            let isLast = index == lines.count - 1  // only the last piece can lack a newline
            if let record = try? decoder.decode(JournalRecord.self, from: line) {
                state.apply(record)
                records += 1
            } else if isLast {
                torn = true
            } else {
                skipped.append(index + 1)
            }
        }
        self.state = state
        self.records = records
        self.tornTail = torn
        self.skippedLines = skipped
        self.needsNewline = !(data.last.map { $0 == UInt8(ascii: "\n") } ?? true)
    }

    /// Replays the journal at `path`; a missing file is an empty journal.
    public static func read(path: String) throws(GalleryError) -> JournalReplay {
        JournalReplay(data: Data(try POSIX.readAll(path) ?? []))
    }
}
