import DatasetFormats

/// A sink that passes every file on to `base` and, for a shard's tar (`NNNNN.tar`), feeds its bytes on the way to
/// an MD5 and the tar header walker, handing the result to ``ShardIndexes/wrote(_:size:md5:members:)`` when the
/// tar closes: a store's tars are indexed without being read back.
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

/// A tar on its way to the store, its MD5, size and members taken as it is written.
final class IndexingHandle: DatasetFileHandle {
    private let base: any DatasetFileHandle
    private let indexes: ShardIndexes
    private let md5 = DigestStream(.md5)
    private var walker = TarMembers.Walker()
    private var size = 0

    init(base: any DatasetFileHandle, indexes: ShardIndexes) {
        self.base = base
        self.indexes = indexes
    }

    var name: String { base.name }

    func write(_ bytes: UnsafeRawBufferPointer) throws(DatasetFormatError) {
        try base.write(bytes)
        md5.update(bytes)
        walker.feed(bytes)
        size += bytes.count
    }

    func close() throws(DatasetFormatError) {
        try base.close()
        indexes.wrote(name, size: size, md5: md5.hex(), members: walker.finish())
    }
}
