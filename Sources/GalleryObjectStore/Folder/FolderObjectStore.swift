import Foundation
import GallerySystem
import Glibc

/// Objects as files under a local (or shared POSIX) folder: the key `a/b.tar` is the file `ROOT/a/b.tar`.
///
/// Every object is written to a visible temporary beside its file (`KEY.~PID-N.upload`) and given its name by
/// `rename(2)` once whole, so a reader sees no object or the whole one. A run killed while it wrote leaves
/// the temporary: ``unfinishedUploads(prefix:)`` finds it and ``abort(_:)`` removes it, as S3 keeps and
/// drops the parts of an unfinished multipart upload. Listings leave temporaries out.
public struct FolderObjectStore: ObjectStore {
    /// The folder the keys are relative to.
    public let root: String
    /// The suffix of a stream's temporary file.
    public static let uploadSuffix = ".upload"

    /// The store of the folder `root` (made by ``check(prefix:)`` or the first write).
    public init(root: String) {
        var root = root
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        self.root = root
    }

    public var location: String { root }
    public func location(of key: String) -> String { root + "/" + key }

    public func check(prefix: String) async throws(ObjectStoreError) {
        let folder = prefix.isEmpty ? root : PathText.folder(of: location(of: prefix + "x"))
        do { try Syscall.makeDirectories(folder) } catch { throw Self.failure(error) }
    }

    public func put(file path: String, as key: String, _ options: ObjectPutOptions) async throws(ObjectStoreError) -> ObjectPutResult {
        let target = try checkedPath(key)
        if options.ifAbsent, Syscall.exists(target) { return .alreadyExisted }
        let writer = try FolderObjectWriter(store: self, key: key, target: target, ifAbsent: options.ifAbsent)
        let source: Int32
        do { source = try Syscall.open(path, O_RDONLY | O_CLOEXEC) } catch {
            writer.discard()
            throw .file(path: path, reason: "cannot be opened for reading (\(error.message))")
        }
        defer { Syscall.closeQuietly(source) }
        do throws(ObjectStoreError) {
            while true {
                let chunk: [UInt8]
                do { chunk = try Syscall.read(source, count: 1 << 20, path: path) } catch {
                    throw .file(path: path, reason: "read: \(error.message)")
                }
                if chunk.isEmpty { break }
                try writer.write(chunk)
            }
            try writer.close()
        } catch {
            writer.discard()
            throw error
        }
        return try await writer.store()
    }

    public func put(bytes: [UInt8], as key: String, _ options: ObjectPutOptions) async throws(ObjectStoreError) -> ObjectPutResult {
        let target = try checkedPath(key)
        if options.ifAbsent, Syscall.exists(target) { return .alreadyExisted }
        let writer = try FolderObjectWriter(store: self, key: key, target: target, ifAbsent: options.ifAbsent)
        do throws(ObjectStoreError) {
            try writer.write(bytes)
            try writer.close()
        } catch {
            writer.discard()
            throw error
        }
        return try await writer.store()
    }

    public func writer(for key: String, _ options: ObjectPutOptions) throws(ObjectStoreError) -> any ObjectWriter {
        try FolderObjectWriter(store: self, key: key, target: checkedPath(key), ifAbsent: false)
    }

    public func get(_ key: String) async throws(ObjectStoreError) -> [UInt8]? {
        let path = try checkedPath(key)
        do { return try Syscall.readAll(path) } catch { throw Self.failure(error) }
    }

    public func get(_ key: String, to path: String) async throws(ObjectStoreError) -> Int64? {
        guard let bytes = try await get(key) else { return nil }
        do { try AtomicWrite.replace(path, with: bytes, durable: false) } catch { throw Self.failure(error) }
        return Int64(bytes.count)
    }

    public func list(prefix: String) async throws(ObjectStoreError) -> [StoredObject] {
        var found: [StoredObject] = []
        var pending = [""]
        while let folder = pending.popLast() {
            let names: [String]
            do { names = try Syscall.names(in: folder.isEmpty ? root : root + "/" + folder) } catch {
                if error.errno == ENOENT || error.errno == ENOTDIR { continue }
                throw Self.failure(error)
            }
            for name in names where !name.hasPrefix(TemporaryFile.prefix) && !name.hasSuffix(Self.uploadSuffix) {
                let key = folder.isEmpty ? name : folder + "/" + name
                guard key.hasPrefix(prefix) || prefix.hasPrefix(key + "/") else { continue }
                guard let info = Syscall.status(root + "/" + key) else { continue }
                if Syscall.isRegular(info) {
                    if key.hasPrefix(prefix) { found.append(StoredObject(key: key, size: Int64(info.st_size))) }
                } else if (info.st_mode & S_IFMT) == S_IFDIR {
                    pending.append(key)
                }
            }
        }
        return found.sorted { $0.key < $1.key }
    }

    public func delete(_ key: String) async throws(ObjectStoreError) {
        let path = try checkedPath(key)
        if !Syscall.remove(path), errno != ENOENT {
            throw .folder(path: path, operation: "unlink", errno: errno)
        }
    }

    public func unfinishedUploads(prefix: String) async throws(ObjectStoreError) -> [UnfinishedUpload] {
        var found: [UnfinishedUpload] = []
        var pending = [""]
        while let folder = pending.popLast() {
            guard let names = try? Syscall.names(in: folder.isEmpty ? root : root + "/" + folder) else { continue }
            for name in names {
                let path = folder.isEmpty ? name : folder + "/" + name
                if name.hasSuffix(Self.uploadSuffix) {
                    let base = path.dropLast(Self.uploadSuffix.count)
                    let key = String(base.range(of: ".~", options: .backwards).map { base[..<$0.lowerBound] } ?? base)
                    if key.hasPrefix(prefix) { found.append(UnfinishedUpload(key: key, id: path)) }
                } else if let info = Syscall.status(root + "/" + path), (info.st_mode & S_IFMT) == S_IFDIR {
                    pending.append(path)
                }
            }
        }
        return found.sorted { $0.key < $1.key }
    }

    public func abort(_ upload: UnfinishedUpload) async throws(ObjectStoreError) {
        guard upload.id.hasPrefix(upload.key + ".~"), upload.id.hasSuffix(Self.uploadSuffix) else {
            throw .invalidKey(upload.id, location: location(of: upload.key))
        }
        try await delete(upload.id)
    }

    // MARK: paths

    /// The file of `key`; a key that is empty, absolute or climbs out of the root is refused.
    func checkedPath(_ key: String) throws(ObjectStoreError) -> String {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard !key.isEmpty, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw .invalidKey(key, location: root)
        }
        return location(of: key)
    }

    static func failure(_ error: SystemError) -> ObjectStoreError {
        .folder(path: error.path, operation: error.call, errno: error.errno)
    }
}
