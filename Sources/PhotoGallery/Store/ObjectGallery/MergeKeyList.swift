import Foundation
import GallerySync
import Glibc

/// What a merge into the store wrote, beside what the merge before it wrote, so the keys of the
/// earlier one that this one no longer writes (index pages past the new last one, pages of photos
/// gone or renamed) are deleted from the store without listing the bucket.
///
/// The list is kept in the store as a part of its own, ``storePath`` (`shards/merge.keys`): the paths
/// below the gallery's prefix the last merge wrote, one a line. A merge fetches it into the work
/// folder before it writes, streams every path it hands to the store into a new list, and keeps
/// 8 bytes a path in memory (its hash, to know the earlier paths it wrote again; a collision could
/// only leave a stale key in place, never delete one this merge wrote). Neither list is held whole.
final class MergeKeyList: Sendable {
    /// The list in the store, below the gallery's prefix.
    static let storePath = ShardLayout.partsFolder + "/merge.keys"
    /// The earlier merge's list, fetched into the work folder.
    static let earlierPath = ".fetch-gallery/store/merge.keys.earlier"
    /// This merge's list, in the work folder.
    static let currentPath = ".fetch-gallery/store/merge.keys"
    /// Files the merge removed from the work folder (pages an earlier merge left there), to delete
    /// from the store with the stale keys.
    static let removedPath = ".fetch-gallery/store/merge.keys.removed"

    private struct State {
        var written: Set<Int> = []
        var list: StreamedFile
        var removed: StreamedFile
        var failure: GalleryError?
    }
    private let state: Locked<State>
    let folder: String

    /// Starts this merge's list in the work folder `folder` (the earlier one is expected at ``earlierPath``).
    init(folder: String) throws(GalleryError) {
        self.folder = folder
        let list = try StreamedFile(path: folder + "/" + Self.currentPath)
        let removed = try StreamedFile(path: folder + "/" + Self.removedPath)
        state = Locked(State(list: list, removed: removed))
    }

    /// This merge hands `path` to the store. Called from the rendering threads.
    func wrote(_ path: String) {
        state.withLock { s in
            guard s.written.insert(path.hashValue).inserted else { return }
            do throws(GalleryError) { try s.list.write(path + "\n") } catch { s.failure = s.failure ?? error }
        }
    }

    /// The merge removed `path` from the work folder: delete it from the store with the stale keys.
    func removed(_ path: String) {
        state.withLock { s in
            do throws(GalleryError) { try s.removed.write(path + "\n") } catch { s.failure = s.failure ?? error }
        }
    }

    /// Publishes both lists in the work folder and hands `body` each path, once, of the earlier list
    /// and of the removed files that this merge did not write; returns how many.
    @discardableResult
    func finish(stale body: (String) -> Void) throws(GalleryError) -> Int {
        let written = try state.withLock { s throws(GalleryError) -> Set<Int> in
            if let failure = s.failure { throw failure }
            try s.list.commit()
            try s.removed.commit()
            return s.written
        }
        var handed: Set<Int> = [], count = 0
        for path in [Self.earlierPath, Self.removedPath] {
            try Self.forEachLine(in: folder + "/" + path) { line in
                guard !written.contains(line.hashValue), handed.insert(line.hashValue).inserted else { return }
                body(line)
                count += 1
            }
        }
        return count
    }

    /// Hands `body` each non-empty line of the file at `path`, read a chunk at a time (nothing when
    /// there is no such file).
    static func forEachLine(in path: String, _ body: (String) -> Void) throws(GalleryError) {
        try JournalLineScanner(path: path).forEachLine { line in
            if !line.bytes.isEmpty { body(String(decoding: line.bytes, as: UTF8.self)) }
        }
    }
}
