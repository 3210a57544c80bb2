import Foundation
import Glibc

/// Reads a shard's photo lines one at a time, in chunks, so a part of any size is read in
/// constant memory.
final class PartReader {
    /// The part file.
    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private let decoder = JSONDecoder()
    /// Photo lines read so far.
    private(set) var count = 0

    /// Opens the part at `path`.
    init(path: String) throws(ShardError) {
        self.path = path
        do { fd = try POSIX.open(path, O_RDONLY) } catch { throw .unreadablePart(path: path, reason: error.description) }
    }

    deinit { _ = Glibc.close(fd) }

    /// The next photo, or nil at the end of the file.
    func next() throws(ShardError) -> ShardPhoto? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<newline]
                start = newline + 1
                if line.isEmpty { continue }
                count += 1
                do {
                    return try decoder.decode(ShardPhoto.self, from: Data(line))
                } catch {
                    throw .unreadablePart(path: path, reason: "line \(count) is not a photo record (\(error))")
                }
            }
            if atEnd {
                guard start == buffer.count else {
                    throw .unreadablePart(path: path, reason: "the last line has no newline (the file was cut short)")
                }
                return nil
            }
            try fill()
        }
    }

    private func fill() throws(ShardError) {
        buffer.removeSubrange(..<start)
        start = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                throw .unreadablePart(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { atEnd = true } else { buffer += chunk[..<n] }
            return
        }
    }
}
