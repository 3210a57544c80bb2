import Glibc

/// What the journal says about the run: which photos were seen, which originals and
/// thumbnails are complete, and what failed.
///
/// A pure value built by applying `JournalRecord`s in order; the manifest and the HTML
/// are generated from it, never from a listing of the folder.
public struct GalleryState: Sendable, Hashable {
    /// Everything known about one photo.
    public struct Entry: Sendable, Hashable {
        /// What the source said about the photo.
        public var metadata: PhotoMetadata
        /// The complete original on disk, once downloaded.
        public var original: OriginalFile?
        /// Thumbnails by size.
        public var thumbnails: [Int: ThumbnailFile] = [:]
        /// Why the photo failed last, if it did.
        public var failure: String?

        /// Done: the original is complete and nothing failed since.
        public var isComplete: Bool { original != nil && failure == nil }
        /// Left out because its site opted it out of AI use (`--respect-opt-out`): not a failure of the run.
        public var isOptedOut: Bool { failure.map(OptOutGate.isOptOut) ?? false }

        /// The complete original when the file is still in `folder` with the recorded size; nil otherwise
        /// (see ``GalleryState/originalOnDisk(of:in:)``).
        public func originalOnDisk(in folder: String) -> OriginalFile? {
            guard let original else { return nil }
            return POSIX.fileSize(folder + "/" + original.path) == Int64(original.bytes) ? original : nil
        }
    }

    /// Photo ids in first-seen order.
    public private(set) var order: [Int] = []
    /// Everything known, by photo id.
    public private(set) var entries: [Int: Entry] = [:]

    /// An empty state: no photo seen.
    public init() {}

    /// The state after applying `records` in order.
    public init(replaying records: some Sequence<JournalRecord>) {
        for record in records { apply(record) }
    }

    /// Entries in first-seen order.
    public var orderedEntries: [Entry] { order.compactMap { entries[$0] } }

    /// The complete original of photo `id` (with its sha256), or nil.
    public func original(of id: Int) -> OriginalFile? { entries[id]?.original }

    /// The original of photo `id` when the journal has it complete and the file is still in
    /// `folder` with the recorded size; nil otherwise, so a resumed run downloads it again.
    ///
    /// A size check only: cheap enough for every photo at start-up. Re-hashing against
    /// `sha256` is the caller's choice.
    public func originalOnDisk(of id: Int, in folder: String) -> OriginalFile? {
        entries[id]?.originalOnDisk(in: folder)
    }

    /// The thumbnails of photo `id` that exist, by size.
    public func thumbnails(of id: Int) -> [Int: ThumbnailFile] { entries[id]?.thumbnails ?? [:] }

    /// Photos that failed, with the reason, in first-seen order.
    public var failures: [(id: Int, reason: String)] {
        orderedEntries.compactMap { entry in entry.failure.map { (entry.metadata.id, $0) } }
    }

    /// Applies one record; later records win over earlier ones.
    public mutating func apply(_ record: JournalRecord) {
        let id = record.photoID
        if entries[id] == nil {
            order.append(id)
            // A record before its `seen` can only follow a lost line; keep the fact anyway.
            entries[id] = Entry(metadata: PhotoMetadata(id: id, name: ""))
        }
        entries[id]!.apply(record)
    }

    /// The shortest record list that rebuilds this state: what compaction writes.
    public var compactedRecords: [JournalRecord] {
        orderedEntries.flatMap(\.compactedRecords)
    }
}

extension GalleryState.Entry {
    /// Applies one record about this photo; later records win over earlier ones.
    mutating func apply(_ record: JournalRecord) {
        switch record {
        case let .seen(metadata):
            self.metadata = metadata
        case let .original(_, file):
            original = file
            failure = nil
        case let .thumbnail(_, file):
            thumbnails[file.size] = file
            failure = nil
        case let .failed(_, reason):
            failure = reason
        }
    }

    /// The shortest record list that rebuilds this entry.
    var compactedRecords: [JournalRecord] {
        let id = metadata.id
        var records: [JournalRecord] = [.seen(metadata)]
        if let original { records.append(.original(id: id, file: original)) }
        for size in thumbnails.keys.sorted() {
            records.append(.thumbnail(id: id, file: thumbnails[size]!))
        }
        if let failure { records.append(.failed(id: id, reason: failure)) }
        return records
    }
}
