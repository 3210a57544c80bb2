/// A ustar archive streamed to a `DatasetFileHandle`: each member's header, its bytes and the padding to
/// 512 bytes go out as they are added, so a shard is never held whole. `close()` ends the archive as
/// Python's `tarfile` does: two zero blocks, then zeros up to a multiple of 10,240 bytes (a tar record).
///
/// Defaults are webdataset's `TarWriter`: mode 0444, user and group `bigdata`, uid and gid 0. The
/// mtime is whole seconds (Python's float mtime would add a pax header to every member).
public final class TarWriter {
    public let handle: any DatasetFileHandle
    public let mtime: Int
    public let mode: Int
    public let user: String
    public let group: String
    private var offset = 0
    private var closed = false
    private static let zeros = [UInt8](repeating: 0, count: 10_240)

    public init(handle: any DatasetFileHandle, mtime: Int? = nil, mode: Int = 0o444,
                user: String = "bigdata", group: String = "bigdata") {
        self.handle = handle
        self.mtime = mtime ?? Int(time(nil))
        self.mode = mode
        self.user = user
        self.group = group
    }

    /// Appends a regular file `name` holding `bytes`.
    public func add(_ name: String, _ bytes: UnsafeRawBufferPointer) throws(DatasetFormatError) {
        guard !closed else { throw .closed(file: handle.name) }
        guard let (prefix, short) = TarHeader.split(name) else {
            throw .memberNameTooLong(file: handle.name, member: name)
        }
        guard bytes.count <= TarHeader.maxSize else {
            throw .tooLarge(file: handle.name, what: "tar member \(name)", bytes: bytes.count)
        }
        let header = TarHeader(name: short, prefix: prefix, mode: mode, size: bytes.count, mtime: mtime,
                               user: user, group: group)
        try handle.write(header.encoded())
        try handle.write(bytes)
        let padding = (512 - bytes.count % 512) % 512
        try writeZeros(padding)
        offset += 512 + bytes.count + padding
    }

    public func add(_ name: String, _ bytes: [UInt8]) throws(DatasetFormatError) {
        let result: Result<Void, DatasetFormatError> = bytes.withUnsafeBytes { raw in
            do throws(DatasetFormatError) { try add(name, raw); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    public func add(_ name: String, text: String) throws(DatasetFormatError) {
        try add(name, Array(text.utf8))
    }

    /// Writes the end-of-archive blocks and closes the handle.
    public func close() throws(DatasetFormatError) {
        guard !closed else { throw .closed(file: handle.name) }
        closed = true
        offset += 1024
        let record = 10_240
        try writeZeros(1024 + (record - offset % record) % record)
        try handle.close()
    }

    private func writeZeros(_ count: Int) throws(DatasetFormatError) {
        var left = count
        while left > 0 {
            let chunk = min(left, Self.zeros.count)
            let result: Result<Void, DatasetFormatError> = Self.zeros.withUnsafeBytes { raw in
                do throws(DatasetFormatError) {
                    try handle.write(UnsafeRawBufferPointer(rebasing: raw[0..<chunk])); return .success(())
                } catch { return .failure(error) }
            }
            try result.get()
            left -= chunk
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
