import DatasetFormats
import GalleryObjectStore
import Glibc

/// One file of an ``ObjectStoreSink``: the store's stream (``ObjectWriter``) as a shard writer's handle.
/// Closing it hands it to the sink, which completes the object in turn (a shard's stats last).
final class ObjectSinkFile: DatasetFileHandle, @unchecked Sendable {
    // write and close belong to the one shard writer that owns the handle; complete and discard run
    // on the sink's tasks after close (the writer keeps what they share behind its own lock).
    let name: String
    private let sink: ObjectStoreSink
    private let writer: any ObjectWriter

    init(sink: ObjectStoreSink, name: String, writer: any ObjectWriter) {
        self.sink = sink
        self.name = name
        self.writer = writer
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(DatasetFormatError) {
        do { try writer.write(bytes) } catch { throw Self.datasetError(error, name: name) }
    }

    func close() throws(DatasetFormatError) {
        do { try writer.close() } catch { throw Self.datasetError(error, name: name) }
        sink.closed(self)
    }

    /// Stores the closed file; a failure is the sink's, named after the file.
    func complete() async {
        do throws(ObjectStoreError) {
            sink.stored(bytes: try await writer.complete())
        } catch {
            sink.fail(String(name.split(separator: "/")[0]), "\(name): \(error)")
        }
    }

    /// Drops the file: nothing of it reaches the store.
    func discard() { writer.discard() }

    /// The writers' error for a stream's: a file call keeps its call and code.
    static func datasetError(_ error: ObjectStoreError, name: String) -> DatasetFormatError {
        switch error {
        case let .folder(path, operation, code): .io(path: path, operation: operation, errno: code)
        case .streamClosed: .closed(file: name)
        case .invalidKey: .invalidName(name)
        default: .io(path: name, operation: "\(error)", errno: EIO)
        }
    }
}
