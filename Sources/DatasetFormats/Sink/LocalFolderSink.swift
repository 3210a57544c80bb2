#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GallerySystem

/// A `DatasetSink` over a local folder. Each file is written as `name.part` and renamed to `name` when
/// its handle closes; a handle dropped without `close()` removes its `.part` file.
public struct LocalFolderSink: DatasetSink {
    public let folder: String

    /// Makes `folder` (and its parents) if it does not exist yet.
    public init(folder: String) throws(DatasetFormatError) {
        self.folder = folder
        try Self.makeDirectories(folder)
    }

    public func create(_ name: String) throws(DatasetFormatError) -> any DatasetFileHandle {
        let final = path(of: try validatedRelativeName(name))
        return try LocalFileHandle(name: name, path: final)
    }

    public func makeFolder(_ name: String) throws(DatasetFormatError) {
        try Self.makeDirectories(path(of: try validatedRelativeName(name)))
    }

    public func remove(_ name: String) {
        guard let name = try? validatedRelativeName(name) else { return }
        try? FileManager.default.removeItem(atPath: path(of: name))
    }

    public func exists(_ name: String) -> Bool {
        guard let name = try? validatedRelativeName(name) else { return false }
        return Syscall.exists(path(of: name))
    }

    public func list() throws(DatasetFormatError) -> [String] {
        try DatasetFormatError.io { () throws(SystemError) in try Syscall.names(in: folder).sorted() }
    }

    private func path(of name: String) -> String { folder.hasSuffix("/") ? folder + name : folder + "/" + name }

    static func makeDirectories(_ path: String) throws(DatasetFormatError) {
        try DatasetFormatError.io { () throws(SystemError) in try Syscall.makeDirectories(path) }
    }
}

/// A `.part` file written through a ``BufferedFile``, renamed into place by `close()`.
final class LocalFileHandle: DatasetFileHandle {
    let name: String
    private let path: String
    private let partPath: String
    private var file: BufferedFile

    init(name: String, path: String) throws(DatasetFormatError) {
        self.name = name
        self.path = path
        self.partPath = path + ".part"
        let partPath = partPath
        file = try DatasetFormatError.io { () throws(SystemError) in try BufferedFile(partPath, flags: O_WRONLY | O_CREAT | O_TRUNC) }
    }

    deinit {
        if file.isOpen {
            file.abandon()
            Syscall.remove(partPath)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(DatasetFormatError) {
        guard file.isOpen else { throw .closed(file: path) }
        do throws(SystemError) { try file.write(bytes) } catch { throw .io(error) }
    }

    func close() throws(DatasetFormatError) {
        guard file.isOpen else { throw .closed(file: path) }
        do throws(SystemError) {
            try file.close()
            try Syscall.rename(partPath, path)
        } catch {
            // A failed flush leaves the file open, and deinit removes it; past that, it goes now.
            if !file.isOpen { Syscall.remove(partPath) }
            throw .io(error)
        }
    }
}

extension DatasetFormatError {
    /// A failed system call as `.io`, naming the path, the call and its `errno`.
    static func io(_ failure: SystemError) -> DatasetFormatError {
        .io(path: failure.path, operation: failure.call, errno: failure.errno)
    }

    /// Runs `body`, a failed system call as ``io(_:)``.
    static func io<T>(_ body: () throws(SystemError) -> T) throws(DatasetFormatError) -> T {
        do throws(SystemError) { return try body() } catch { throw .io(error) }
    }
}
