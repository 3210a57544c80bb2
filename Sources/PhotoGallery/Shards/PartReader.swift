import Foundation
import GallerySystem

/// Reads a shard's photo lines one at a time, in chunks, so a part of any size is read in
/// constant memory.
final class PartReader {
    /// The part file.
    let path: String
    private let lines: LineReader<FileSource>
    private let decoder = JSONDecoder()
    /// Photo lines read so far.
    private(set) var count = 0

    /// Opens the part at `path`.
    init(path: String) throws(ShardError) {
        self.path = path
        do throws(SystemError) { lines = try LineReader(path: path) } catch {
            throw .unreadablePart(path: path, reason: GalleryError(error).description)
        }
    }

    /// The next photo, or nil at the end of the file.
    func next() throws(ShardError) -> ShardLine? {
        while true {
            let next: LineReader<FileSource>.Line?
            do throws(SystemError) { next = try lines.next() } catch {
                throw .unreadablePart(path: path, reason: error.message)
            }
            guard let next else { return nil }
            guard next.terminated else {
                throw .unreadablePart(path: path, reason: "the last line has no newline (the file was cut short)")
            }
            if next.bytes.isEmpty { continue }
            count += 1
            do {
                return try decoder.decode(ShardLine.self, from: Data(next.bytes))
            } catch {
                throw .unreadablePart(path: path, reason: "line \(count) is not a photo record (\(error))")
            }
        }
    }
}
