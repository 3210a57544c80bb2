import Glibc

/// A file written front to back through a 256 KiB buffer: the one writer under a dataset's `.part` files and
/// the object stores' streams (a folder's temporary file, an S3 upload's spool). Small writes gather in the
/// buffer; one that would overflow it writes the buffer first, and one as large as the buffer goes straight
/// to the file. Whoever holds it writes and closes it; the owner decides what a failure means (each call
/// throws the ``SystemError`` naming ``path``).
public struct BufferedFile {
    public static let bufferLimit = 256 << 10

    public let path: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    /// Bytes in the file so far (written, not buffered).
    public private(set) var flushed: Int64 = 0

    /// Opens `path` with `flags` (created, truncated: the caller says); with `makingParents`, a missing
    /// parent folder is made and the open tried again.
    public init(_ path: String, flags: Int32, makingParents: Bool = false) throws(SystemError) {
        self.path = path
        do throws(SystemError) {
            fd = try Syscall.open(path, flags)
        } catch where makingParents && error.errno == ENOENT {
            try Syscall.makeDirectories(PathText.folder(of: path))
            fd = try Syscall.open(path, flags)
        }
    }

    /// Whether it is open (not yet closed or abandoned).
    public var isOpen: Bool { fd >= 0 }

    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        if buffer.count + bytes.count > Self.bufferLimit {
            try flush()
            if bytes.count >= Self.bufferLimit {
                try Syscall.writeAll(fd, bytes, path: path)
                flushed += Int64(bytes.count)
                return
            }
        }
        buffer.append(contentsOf: bytes)
    }

    /// Writes the buffer to the file.
    public mutating func flush() throws(SystemError) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try Syscall.writeAll(fd, buffer, path: path)
        flushed += Int64(buffer.count)
    }

    /// Flushes and closes. When the flush fails the file stays open (the owner abandons it); once `close(2)`
    /// is called it is closed, whatever that returns.
    public mutating func close() throws(SystemError) {
        try flush()
        let descriptor = fd
        fd = -1
        try Syscall.close(descriptor, path: path)
    }

    /// Closes without writing what is buffered (a file being dropped); the file itself is the owner's to remove.
    public mutating func abandon() {
        if fd >= 0 { Syscall.closeQuietly(fd) }
        fd = -1
        buffer.removeAll()
    }
}
