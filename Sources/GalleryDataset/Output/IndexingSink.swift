import DatasetFormats
import GalleryRunner
import GallerySync

/// A sink that passes every file on to `base` and, for a shard's tar (`NNNNN.tar`), feeds its bytes on the way to
/// an MD5 and the tar header walker, handing the result to ``ShardIndexes/wrote(_:size:md5:members:)`` when the
/// tar closes: the tars a run writes, to a folder or a store, are indexed without being read back.
struct IndexingSink: DatasetSink {
    let base: any DatasetSink
    let indexes: ShardIndexes

    func create(_ name: String) throws(DatasetFormatError) -> any DatasetFileHandle {
        let handle = try base.create(name)
        guard name.hasSuffix(".tar"), !name.contains("/") else { return handle }
        return IndexingHandle(base: handle, indexes: indexes)
    }

    func makeFolder(_ name: String) throws(DatasetFormatError) { try base.makeFolder(name) }
    func remove(_ name: String) { base.remove(name) }
    func exists(_ name: String) -> Bool { base.exists(name) }
    func list() throws(DatasetFormatError) -> [String] { try base.list() }
}

/// A tar on its way to the sink, its MD5, size and members taken as it is written: the bytes are gathered in chunks of
/// ``chunkSize``; each is walked for its headers on a thread of its own (``SerialBackground``) while the writer goes
/// on, and hashed with the other tars' chunks in ``MD5Lanes``.
final class IndexingHandle: DatasetFileHandle {
    private let base: any DatasetFileHandle
    private let indexes: ShardIndexes
    private let lanes: MD5Lanes
    private let md5: MD5Lanes.Stream
    private let walker = ChunkWalker()
    private let background = SerialBackground(label: "fetch-gallery.tar-walk", backlog: 2)
    private var chunk: [UInt8] = []
    private var size = 0
    private var closed = false
    static let chunkSize = 512 << 10

    init(base: any DatasetFileHandle, indexes: ShardIndexes, lanes: MD5Lanes = .shared) {
        self.base = base
        self.indexes = indexes
        self.lanes = lanes
        md5 = lanes.open()
        chunk.reserveCapacity(Self.chunkSize)
    }

    deinit {
        background.wait()
        if !closed { lanes.abandon(md5) }
    }

    var name: String { base.name }

    func write(_ bytes: UnsafeRawBufferPointer) throws(DatasetFormatError) {
        try base.write(bytes)
        size += bytes.count
        var rest = bytes
        while !rest.isEmpty {
            let taken = min(rest.count, Self.chunkSize - chunk.count)
            chunk.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[0..<taken]))
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
            if chunk.count == Self.chunkSize { handOn() }
        }
    }

    func close() throws(DatasetFormatError) {
        handOn()
        background.wait()
        closed = true
        let md5 = lanes.finish(md5)
        try base.close()
        indexes.wrote(name, size: size, md5: md5, members: walker.members.finish())
    }

    private func handOn() {
        guard !chunk.isEmpty else { return }
        let full = chunk
        let (walker, lanes, md5) = (walker, lanes, md5)
        background.async {
            full.withUnsafeBytes { walker.members.feed($0) }
            lanes.feed(md5, full)
        }
        chunk = []
        chunk.reserveCapacity(Self.chunkSize)
    }
}

/// The header walker of one tar, fed its chunks in order on its handle's ``SerialBackground`` only, and read once
/// that is done (after ``SerialBackground/wait()``).
private final class ChunkWalker: @unchecked Sendable {
    var members = TarMembers.Walker()
}
