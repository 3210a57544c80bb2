import Foundation
import Glibc

/// Reads a journal file a chunk at a time and hands on each line with its offset, so that opening a
/// journal of any size takes constant memory beyond the index.
struct JournalLineScanner {
    /// One line: its offset, bytes (no newline), and whether a newline ended it.
    typealias Line = (offset: Int64, bytes: ArraySlice<UInt8>, terminated: Bool)

    let path: String

    /// Calls `body` for every line of the file in order; a missing file has none. Returns the file size.
    @discardableResult
    func forEachLine(_ body: (Line) -> Void) throws(GalleryError) -> Int64 {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return 0 }
            throw .system(call: "open", path: path, errno: errno)
        }
        defer { _ = Glibc.close(fd) }
        var buffer: [UInt8] = []
        var bufferOffset: Int64 = 0  // file offset of buffer[0]
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(call: "read", path: path, errno: errno)
            }
            if n == 0 { break }
            buffer += chunk[..<n]
            var start = 0
            while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                body((bufferOffset + Int64(start), buffer[start..<newline], true))
                start = newline + 1
            }
            buffer.removeSubrange(..<start)
            bufferOffset += Int64(start)
        }
        if !buffer.isEmpty { body((bufferOffset, buffer[...], false)) }
        return bufferOffset + Int64(buffer.count)
    }
}

extension JournalRecord {
    /// The record on one line of the journal (no newline), or nil when it is not one.
    static func decodeLine(_ line: some Collection<UInt8>, with decoder: JSONDecoder) -> JournalRecord? {
        try? decoder.decode(JournalRecord.self, from: Data(line))
    }
}
