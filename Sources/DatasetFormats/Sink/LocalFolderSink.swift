#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

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
        return access(path(of: name), F_OK) == 0
    }

    public func list() throws(DatasetFormatError) -> [String] {
        guard let dir = opendir(folder) else { throw .io(path: folder, operation: "opendir", errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    private func path(of name: String) -> String { folder.hasSuffix("/") ? folder + name : folder + "/" + name }

    static func makeDirectories(_ path: String) throws(DatasetFormatError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw .io(path: prefix, operation: "mkdir", errno: errno)
            }
            prefix += "/"
        }
    }
}

/// A `.part` file written through a 256 KiB buffer, renamed into place by `close()`.
final class LocalFileHandle: DatasetFileHandle {
    let name: String
    private let path: String
    private let partPath: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private static let bufferLimit = 256 << 10

    init(name: String, path: String) throws(DatasetFormatError) {
        self.name = name
        self.path = path
        self.partPath = path + ".part"
        fd = open(partPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io(path: partPath, operation: "open", errno: errno) }
    }

    deinit {
        if fd >= 0 {
            Glibc.close(fd)
            unlink(partPath)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(DatasetFormatError) {
        guard fd >= 0 else { throw .closed(file: path) }
        if buffer.count + bytes.count > Self.bufferLimit {
            try flush()
            if bytes.count >= Self.bufferLimit { return try writeAll(bytes) }
        }
        buffer.append(contentsOf: bytes)
    }

    func close() throws(DatasetFormatError) {
        guard fd >= 0 else { throw .closed(file: path) }
        try flush()
        let descriptor = fd
        fd = -1
        if Glibc.close(descriptor) != 0 {
            let code = errno
            unlink(partPath)
            throw .io(path: partPath, operation: "close", errno: code)
        }
        if rename(partPath, path) != 0 {
            let code = errno
            unlink(partPath)
            throw .io(path: path, operation: "rename", errno: code)
        }
    }

    private func flush() throws(DatasetFormatError) {
        guard !buffer.isEmpty else { return }
        let result: Result<Void, DatasetFormatError> = buffer.withUnsafeBytes { raw in
            do throws(DatasetFormatError) { try writeAll(raw); return .success(()) } catch { return .failure(error) }
        }
        buffer.removeAll(keepingCapacity: true)
        try result.get()
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(DatasetFormatError) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw .io(path: partPath, operation: "write", errno: errno)
            }
            offset += written
        }
    }
}
