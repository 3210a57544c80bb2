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
/// ``chunkSize``, each hashed and walked on a thread of its own (``SerialBackground``) while the writer goes on.
final class IndexingHandle: DatasetFileHandle {
    private let base: any DatasetFileHandle
    private let indexes: ShardIndexes
    private let reader = ChunkReader()
    private let background = SerialBackground(label: "fetch-gallery.tar-md5", backlog: 4)
    private var chunk: [UInt8] = []
    private var size = 0
    static let chunkSize = 1 << 20

    init(base: any DatasetFileHandle, indexes: ShardIndexes) {
        self.base = base
        self.indexes = indexes
        chunk.reserveCapacity(Self.chunkSize)
    }

    deinit { background.wait() }

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
        try base.close()
        indexes.wrote(name, size: size, md5: reader.md5.hex(), members: reader.walker.finish())
    }

    private func handOn() {
        guard !chunk.isEmpty else { return }
        let full = chunk
        let reader = reader
        background.async { full.withUnsafeBytes { reader.feed($0) } }
        chunk = []
        chunk.reserveCapacity(Self.chunkSize)
    }
}

/// The MD5 and header walker of one tar, fed its chunks in order on its handle's ``SerialBackground`` only, and read
/// once that is done (after ``SerialBackground/wait()``).
private final class ChunkReader: @unchecked Sendable {
    let md5 = DigestStream(.md5)
    var walker = TarMembers.Walker()

    func feed(_ chunk: UnsafeRawBufferPointer) {
        md5.update(chunk)
        walker.feed(chunk)
    }
}
