import DatasetFormats
import Foundation
import GallerySync
import GallerySystem

/// One file of an ``S3DatasetSink``: written to its spool file, its parts uploaded one after another as
/// they fill (a multipart upload begun with the first), completed by ``complete()`` once closed.
final class S3SpoolHandle: DatasetFileHandle, @unchecked Sendable {
    // The writing side (write, close) belongs to the one shard writer that owns the handle; what the
    // upload tasks share with it is in `upload`, behind its lock.
    let name: String
    let key: String
    private let sink: S3DatasetSink
    private let path: String
    private let partSize: Int64
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var flushed: Int64 = 0
    private var partsQueued = 0
    private static let bufferLimit = 256 << 10

    struct Upload {
        var id: S3MultipartUpload?
        var etags: [String] = []
        var failure: String?
        /// The last part queued: the next one (and the completion) waits for it.
        var chain: Task<Void, Never>?
        var finished = false
    }
    private let upload = Locked(Upload())

    init(sink: S3DatasetSink, name: String) throws(DatasetFormatError) {
        self.sink = sink
        self.name = name
        key = sink.bucketLocation.key(name)
        path = sink.spoolFolder + "/" + name
        partSize = sink.client.multipart.partSize
        if name.contains("/") {
            do { try POSIX.makeDirectories((path as NSString).deletingLastPathComponent) } catch {
                throw .io(path: path, operation: "mkdir", errno: EIO)
            }
        }
        do { fd = try Syscall.open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC) } catch {
            throw .io(path: path, operation: error.call, errno: error.errno)
        }
    }

    deinit {
        // Dropped without close (a shard that failed): nothing of it may reach the store.
        if fd >= 0 {
            Syscall.closeQuietly(fd)
            discard()
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(DatasetFormatError) {
        guard fd >= 0 else { throw .closed(file: name) }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferLimit { try flush() }
    }

    func close() throws(DatasetFormatError) {
        guard fd >= 0 else { throw .closed(file: name) }
        try flush()
        do { try Syscall.close(fd, path: path) } catch {
            // The spool may not hold what was written: nothing of it may reach the store.
            fd = -1
            discard()
            throw .io(path: path, operation: error.call, errno: error.errno)
        }
        fd = -1
        sink.closed(self)
    }

    /// Writes the buffer to the spool, then queues every part it completes.
    private func flush() throws(DatasetFormatError) {
        do { try Syscall.writeAll(fd, buffer, path: path) } catch {
            throw .io(path: path, operation: error.call, errno: error.errno)
        }
        flushed += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
        while flushed >= Int64(partsQueued + 1) * partSize {
            queuePart(offset: Int64(partsQueued) * partSize, count: partSize)
            partsQueued += 1
        }
    }

    private func queuePart(offset: Int64, count: Int64) {
        let (client, key, path, sink) = (sink.client, key, path, sink)
        upload.withLock { u in
            let previous = u.chain
            u.chain = Task {
                await previous?.value
                guard self.upload.withLock({ $0.failure == nil }) else { return }
                do throws(S3Error) {
                    var id = self.upload.withLock { $0.id }
                    if id == nil {
                        let created = try await client.createUpload(key: key, contentType: GalleryFileKind.contentType(of: key),
                                                                    cacheControl: nil)
                        self.upload.withLock { $0.id = created }
                        id = created
                    }
                    await sink.slots.acquire()
                    defer { sink.slots.release() }
                    let bytes = try S3Client.read(path, offset: offset, count: Int(count))
                    let number = self.upload.withLock { $0.etags.count } + 1
                    let etag = try await client.uploadPart(id!, number: number, of: nil, bytes: bytes)
                    self.upload.withLock { $0.etags.append(etag) }
                    sink.sent(bytes: count)
                } catch {
                    self.upload.withLock { $0.failure = error.description }
                }
            }
        }
    }

    /// After close: the last part and the completion, or one PUT for a file smaller than a part. A
    /// failure is the sink's, named after the file; the spool file goes either way.
    func complete() async {
        let tail = flushed - Int64(partsQueued) * partSize
        if partsQueued > 0, tail > 0 { queuePart(offset: Int64(partsQueued) * partSize, count: tail) }
        await upload.withLock { $0.chain }?.value
        let (id, etags, failure) = upload.withLock { ($0.id, $0.etags, $0.failure) }
        let client = sink.client
        let top = String(name.split(separator: "/")[0])
        do throws(S3Error) {
            if let failure { throw .file(path: name, reason: failure) }
            if let id {
                _ = try await client.complete(id, etags: etags, ifNoneMatch: false)
                sink.stored(bytes: 0, object: true)
            } else {
                await sink.slots.acquire()
                defer { sink.slots.release() }
                let bytes = try S3Client.read(path, offset: 0, count: Int(flushed))
                _ = try await client.put(key: key, body: bytes, contentType: GalleryFileKind.contentType(of: key))
                sink.stored(bytes: flushed, object: true)
            }
        } catch {
            if let id { await Task { try? await client.abort(id) }.value }
            sink.fail(top, "\(name): \(error)")
        }
        upload.withLock { $0.finished = true }
        _ = Syscall.remove(path)
    }

    /// Drops the file: its upload, if begun, is aborted once its parts are done; the spool file goes.
    /// (Called from deinit too: the task holds the shared upload state, never the handle.)
    func discard() {
        let (client, path, upload) = (sink.client, path, upload)
        let chain = upload.withLock { u -> Task<Void, Never>? in
            u.failure = u.failure ?? "discarded"
            return u.chain
        }
        Task {
            await chain?.value
            if let id = upload.withLock({ $0.id }) { try? await client.abort(id) }
            _ = Syscall.remove(path)
        }
    }
}
