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
    private var file: BufferedFile
    private let settled = Locked(false)
    private static let counter = Locked<UInt64>(0)

    init(store: FolderObjectStore, key: String, target: String, ifAbsent: Bool) throws(ObjectStoreError) {
        self.store = store
        self.key = key
        self.target = target
        self.ifAbsent = ifAbsent
        temporary = target + ".~\(getpid())-\(Self.counter.withLock { n in defer { n += 1 }; return n })" + FolderObjectStore.uploadSuffix
        do {
            file = try BufferedFile(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, makingParents: true)
        } catch { throw FolderObjectStore.failure(error) }
    }

    deinit {
        // Dropped without being stored: nothing of it stays.
        file.abandon()
        if !settled.withLock({ $0 }) { _ = Syscall.remove(temporary) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(ObjectStoreError) {
        guard file.isOpen else { throw .streamClosed(location: store.location(of: key)) }
        do { try file.write(bytes) } catch { throw FolderObjectStore.failure(error) }
    }

    func close() throws(ObjectStoreError) {
        guard file.isOpen else { throw .streamClosed(location: store.location(of: key)) }
        do { try file.close() } catch { throw FolderObjectStore.failure(error) }
    }

    func complete() async throws(ObjectStoreError) -> Int64 {
        _ = try await store()
        return file.flushed
    }

    /// Names the closed file; with `ifAbsent`, an existing file is kept and the stream dropped.
    func store() async throws(ObjectStoreError) -> ObjectPutResult {
        guard !file.isOpen, settled.withLock({ s in defer { s = true }; return !s }) else {
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
        file.abandon()
        if settled.withLock({ s in defer { s = true }; return !s }) { _ = Syscall.remove(temporary) }
    }
}
