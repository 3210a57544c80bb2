#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads with POSIX calls: images are small next to their pixels, one read is the
/// simplest fast path, and errno becomes a typed error naming the file.
enum FileBytes {
    static func read(_ path: String) throws(DecodeError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(name: path, reason: errnoText()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(name: path, reason: errnoText()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .io(name: path, reason: "not a regular file") }
        let size = Int(info.st_size)
        var failure: String?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var done = 0
            while done < size {
                let n = systemRead(fd, buffer.baseAddress! + done, size - done)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = errnoText(); break }
                if n == 0 { break }  // shrank while reading: decode what is there
                done += n
            }
            initialized = done
        }
        if let failure { throw .io(name: path, reason: failure) }
        return bytes
    }

    private static func systemRead(_ fd: Int32, _ into: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, into, count)
        #else
        Darwin.read(fd, into, count)
        #endif
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
