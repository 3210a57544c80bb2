import GallerySync
import GallerySystem
import Glibc

/// A stream to one object of an ``S3ObjectStore``: written to its spool file, its parts uploaded one
/// after another as they fill (a multipart upload begun with the first), completed by ``complete()``
/// once closed; a stream smaller than one part goes up in one PUT. Memory holds a few parts at most,
/// whatever the object's size, and the spool file is deleted once the object is stored or dropped.
final class S3ObjectWriter: ObjectWriter, @unchecked Sendable {
    // The writing side (write, close) belongs to the one writer that owns the stream; what the upload
    // tasks share with it is in `upload`, behind its lock.
    let key: String
    private let store: S3ObjectStore
    private let options: ObjectPutOptions
    private let path: String
    private let partSize: Int64
    private var spool: BufferedFile
    private var partsQueued = 0

    struct Upload {
        var id: S3MultipartUpload?
        var etags: [String] = []
        var failure: String?
        /// The last part queued: the next one (and the completion) waits for it.
        var chain: Task<Void, Never>?
    }
    private let upload = Locked(Upload())

    init(store: S3ObjectStore, key: String, options: ObjectPutOptions) throws(ObjectStoreError) {
        self.store = store
        self.key = key
        self.options = options
        path = store.spoolFolder + "/" + key
        partSize = store.client.multipart.partSize
        do {
            spool = try BufferedFile(path, flags: O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, makingParents: true)
        } catch { throw Self.failure(error) }
    }

    deinit {
        // Dropped without close (a shard that failed): nothing of it may reach the store.
        if spool.isOpen {
            spool.abandon()
            discard()
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(ObjectStoreError) {
        guard spool.isOpen else { throw .streamClosed(location: store.location(of: key)) }
        do { try spool.write(bytes) } catch { throw Self.failure(error) }
        queueFilledParts()
    }

    func close() throws(ObjectStoreError) {
        guard spool.isOpen else { throw .streamClosed(location: store.location(of: key)) }
        do { try spool.close() } catch {
            // The spool may not hold what was written: nothing of it may reach the store.
            if !spool.isOpen { discard() }
            throw Self.failure(error)
        }
        queueFilledParts()
    }

    private static func failure(_ error: SystemError) -> ObjectStoreError {
        .folder(path: error.path, operation: error.call, errno: error.errno)
    }

    /// Queues every part the spool now holds whole.
    private func queueFilledParts() {
        let flushed = spool.flushed
        while flushed >= Int64(partsQueued + 1) * partSize {
            queuePart(offset: Int64(partsQueued) * partSize, count: partSize)
            partsQueued += 1
        }
    }

    private func queuePart(offset: Int64, count: Int64) {
        let (store, key, path, options) = (store, store.bucketLocation.key(key), path, options)
        upload.withLock { u in
            let previous = u.chain
            u.chain = Task {
                await previous?.value
                guard self.upload.withLock({ $0.failure == nil }) else { return }
                do throws(S3Error) {
                    var id = self.upload.withLock { $0.id }
                    if id == nil {
                        let created = try await store.client.createUpload(key: key, contentType: options.contentType,
                                                                          cacheControl: options.cacheControl)
                        self.upload.withLock { $0.id = created }
                        id = created
                    }
                    await store.slots.acquire()
                    defer { store.slots.release() }
                    let bytes = try S3Client.read(path, offset: offset, count: Int(count))
                    let number = self.upload.withLock { $0.etags.count } + 1
                    let etag = try await store.client.uploadPart(id!, number: number, of: nil, bytes: bytes)
                    self.upload.withLock { $0.etags.append(etag) }
                } catch {
                    self.upload.withLock { $0.failure = error.description }
                }
            }
        }
    }

    /// After close: the last part and the completion, or one PUT for a stream smaller than a part. A
    /// failure names the object; the spool file goes either way.
    func complete() async throws(ObjectStoreError) -> Int64 {
        let flushed = spool.flushed
        let tail = flushed - Int64(partsQueued) * partSize
        if partsQueued > 0, tail > 0 { queuePart(offset: Int64(partsQueued) * partSize, count: tail) }
        await upload.withLock { $0.chain }?.value
        let (id, etags, failure) = upload.withLock { ($0.id, $0.etags, $0.failure) }
        let (client, key) = (store.client, store.bucketLocation.key(key))
        defer { _ = Syscall.remove(path) }
        do throws(ObjectStoreError) {
            if let failure { throw .file(path: self.key, reason: failure) }
            if let id {
                _ = try await client.complete(id, etags: etags, ifNoneMatch: false)
            } else {
                await store.slots.acquire()
                defer { store.slots.release() }
                let bytes = try S3Client.read(path, offset: 0, count: Int(flushed))
                _ = try await client.put(key: key, body: bytes, contentType: options.contentType, cacheControl: options.cacheControl)
            }
        } catch {
            if let id { await Task { try? await client.abort(id) }.value }
            throw error
        }
        return flushed
    }

    /// Drops the stream: its upload, if begun, is aborted once its parts are done; the spool file goes.
    /// (Called from deinit too: the task holds the shared upload state, never the writer.)
    func discard() {
        let (client, path, upload) = (store.client, path, upload)
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
