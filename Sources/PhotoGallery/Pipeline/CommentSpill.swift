import Foundation
import GallerySystem
import Glibc
import GallerySync

/// The comments fetched during a run (`--comments`), kept in a file beside the journal rather than in
/// memory: one JSON line per photo, and in memory only where each line is (24 bytes a photo).
/// The pages written at the end read them back one photo at a time. The file is the run's own
/// scratch: it starts empty every run (comments are fetched again for every photo a run handles).
final class CommentSpill: Sendable {
    let path: String
    private struct Storage {
        var fd: Int32
        var size: Int64 = 0
        var lines: [Int: RecordRef] = [:]
    }
    private let storage: Locked<Storage>

    /// A new, empty spill file at `path`.
    init(path: String) throws(GalleryError) {
        self.path = path
        try POSIX.makeDirectories(PathText.directory(path))
        storage = Locked(Storage(fd: try POSIX.open(path, O_RDWR | O_CREAT | O_TRUNC)))
    }

    deinit {
        storage.withLock { POSIX.closeQuietly($0.fd) }
        POSIX.remove(path)
    }

    /// Records the comments of photo `id` (a later call for the same photo wins). Comments are extras:
    /// one that cannot be written is left out.
    func set(_ comments: [Comment], for id: Int) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard !comments.isEmpty, let line = try? encoder.encode(comments) else { return }
        storage.withLock { s in
            let bytes = Array(line)
            guard (try? POSIX.writeAll(s.fd, bytes, at: s.size, path: path)) != nil else { return }
            s.lines[id] = RecordRef(offset: s.size, length: Int32(clamping: bytes.count))
            s.size += Int64(bytes.count)
        }
    }

    /// The comments of photo `id`, or none.
    func comments(of id: Int) -> [Comment] {
        storage.withLock { s -> [Comment] in
            guard let ref = s.lines[id] else { return [] }
            guard let bytes = try? POSIX.read(s.fd, count: Int(ref.length), at: ref.offset, path: path),
                  bytes.count == Int(ref.length) else { return [] }
            return (try? JSONDecoder().decode([Comment].self, from: Data(bytes))) ?? []
        }
    }
}
