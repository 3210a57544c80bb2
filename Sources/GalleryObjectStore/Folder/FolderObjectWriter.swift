import GallerySync
import GallerySystem
import Glibc

/// A stream to one file of a ``FolderObjectStore``: written to `KEY.~PID-N.upload` beside it (a name of
/// its own, so aborting an earlier run's leftover for the key never touches it), named by `rename(2)`
/// once complete.
final class FolderObjectWriter: ObjectWriter, @unchecked Sendable {
    // The writing side (write, close) belongs to the one writer that owns the stream (see ObjectWriter);
    // complete and discard come after close, or instead of it.
    let key: String
    private let store: FolderObjectStore
    private let target: String
    private let temporary: String
    private let ifAbsent: Bool
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var written: Int64 = 0
    private let settled = Locked(false)
    private static let bufferLimit = 256 << 10
    private static let counter = Locked<UInt64>(0)

    init(store: FolderObjectStore, key: String, target: String, ifAbsent: Bool) throws(ObjectStoreError) {
        self.store = store
        self.key = key
        self.target = target
        self.ifAbsent = ifAbsent
        temporary = target + ".~\(getpid())-\(Self.counter.withLock { n in defer { n += 1 }; return n })" + FolderObjectStore.uploadSuffix
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        do {
            do { fd = try Syscall.open(temporary, flags) } catch where error.errno == ENOENT {
                try Syscall.makeDirectories(store.directory(of: target))
                fd = try Syscall.open(temporary, flags)
            }
        } catch { throw FolderObjectStore.failure(error) }
    }

    deinit {
        // Dropped without being stored: nothing of it stays.
        if fd >= 0 { Syscall.closeQuietly(fd) }
        if !settled.withLock({ $0 }) { _ = Syscall.remove(temporary) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(ObjectStoreError) {
        guard fd >= 0 else { throw .streamClosed(location: store.location(of: key)) }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferLimit { try flush() }
    }

    func close() throws(ObjectStoreError) {
        guard fd >= 0 else { throw .streamClosed(location: store.location(of: key)) }
        try flush()
        let descriptor = fd
        fd = -1
        do { try Syscall.close(descriptor, path: temporary) } catch { throw FolderObjectStore.failure(error) }
    }

    private func flush() throws(ObjectStoreError) {
        do { try Syscall.writeAll(fd, buffer, path: temporary) } catch { throw FolderObjectStore.failure(error) }
        written += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    func complete() async throws(ObjectStoreError) -> Int64 {
        _ = try await store()
        return written
    }

    /// Names the closed file; with `ifAbsent`, an existing file is kept and the stream dropped.
    func store() async throws(ObjectStoreError) -> ObjectPutResult {
        guard fd < 0, settled.withLock({ s in defer { s = true }; return !s }) else {
            throw .streamClosed(location: store.location(of: key))
        }
        if ifAbsent, Syscall.exists(target) {
            _ = Syscall.remove(temporary)
            return .alreadyExisted
        }
        do { try Syscall.rename(temporary, target) } catch {
            _ = Syscall.remove(temporary)
            throw FolderObjectStore.failure(error)
        }
        return .created
    }

    func discard() {
        if fd >= 0 {
            Syscall.closeQuietly(fd)
            fd = -1
        }
        if settled.withLock({ s in defer { s = true }; return !s }) { _ = Syscall.remove(temporary) }
    }
}
