import Glibc

/// Where a ``LineReader`` takes its bytes: a file descriptor (``FileSource``), or a decompressor over one.
public protocol ByteSource {
    /// What a read throws.
    associatedtype Failure: Error
    /// Reads up to `buffer.count` bytes into `buffer`; 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int
}

/// The bytes of a file open at `fd`, read from its file position.
public struct FileSource: ByteSource {
    /// The descriptor.
    public let fd: Int32
    /// The path it was opened from, for errors.
    public let path: String

    /// Reads `fd`, naming `path` in errors.
    public init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try Syscall.read(fd, into: buffer, path: path)
    }
}

/// Splits a stream into lines a chunk at a time, so a file of any size is read in constant memory
/// (beyond its longest line). Every line-oriented file of the project goes through it: the journal, the
/// plan, a shard's part, the dataset input lists.
public final class LineReader<Source: ByteSource> {
    /// One line: where it starts in the stream, its bytes (no newline), and whether a newline ended it
    /// (only the last line can lack one: a file cut short, or a list without a final newline).
    public struct Line: Equatable {
        /// The offset of its first byte.
        public let offset: Int64
        /// Its bytes, without the newline.
        public let bytes: ArraySlice<UInt8>
        /// Whether a newline ended it.
        public let terminated: Bool
    }

    /// The stream.
    public private(set) var source: Source
    /// 1-based number of the last line returned.
    public private(set) var lineNumber = 0
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the newline search resumes (the bytes before it, from `start`, hold none).
    private var scanned = 0
    /// The stream offset of `buffer[0]`.
    private var bufferOffset: Int64 = 0
    private var atEnd = false
    private let chunkSize: Int
    /// Closes what the reader opened itself, when it goes.
    fileprivate var closing: (() -> Void)?

    /// Lines of `source`, read `chunkSize` bytes at a time.
    public init(_ source: Source, chunkSize: Int = 1 << 16) {
        self.source = source
        self.chunkSize = chunkSize
    }

    deinit { closing?() }

    /// The next line, or nil at the end of the stream.
    public func next() throws(Source.Failure) -> Line? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Line(offset: bufferOffset + Int64(start), bytes: buffer[start..<newline], terminated: true)
                start = newline + 1
                scanned = start
                lineNumber += 1
                return line
            }
            scanned = buffer.count
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = Line(offset: bufferOffset + Int64(start), bytes: buffer[start...], terminated: false)
                start = buffer.count
                scanned = start
                lineNumber += 1
                return line
            }
            try fill()
        }
    }

    /// The stream's next bytes as they come, for formats not split by lines (a JSON array): what is
    /// buffered first, then a chunk at a time; nil at the end.
    public func nextChunk() throws(Source.Failure) -> ArraySlice<UInt8>? {
        if start == buffer.count {
            guard !atEnd else { return nil }
            try fill()
            guard start < buffer.count else { return nil }
        }
        defer {
            start = buffer.count
            scanned = start
        }
        return buffer[start...]
    }

    /// The stream offset just past the last line returned.
    public var offset: Int64 { bufferOffset + Int64(start) }

    private func fill() throws(Source.Failure) {
        bufferOffset += Int64(start)
        buffer.removeSubrange(..<start)
        scanned -= start
        start = 0
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let n = try chunk.withMutableBytes { raw throws(Source.Failure) in try source.read(into: raw) }
        if n == 0 { atEnd = true } else { buffer += chunk[..<n] }
    }
}

extension LineReader where Source == FileSource {
    /// The lines of the file at `path` (a missing file throws `ENOENT` from `open`). The descriptor is
    /// closed when the reader goes.
    public convenience init(path: String) throws(SystemError) {
        let fd = try Syscall.open(path, O_RDONLY)
        self.init(FileSource(fd: fd, path: path))
        closing = { Syscall.closeQuietly(fd) }
    }
}
