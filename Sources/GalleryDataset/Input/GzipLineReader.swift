import CZlib
import GallerySystem

/// Reads a file line by line through zlib's gzFile, which inflates `.gz` files and passes plain files
/// through unchanged, so every input format streams the same way and no list is ever held whole.
/// Lines end at `\n` (split by GallerySystem's `LineReader`); a trailing `\r` is dropped (lists written
/// on Windows).
final class GzipLineReader {
    let path: String
    private let file: gzFile
    private let lines: LineReader<GzipSource>
    /// 1-based number of the last line returned.
    var lineNumber: Int { lines.lineNumber }

    init(path: String) throws(DatasetError) {
        self.path = path
        guard let file = gzopen(path, "rb") else {
            throw .unreadableInput(path: path, reason: "cannot open (missing or not readable)")
        }
        gzbuffer(file, 1 << 17)
        self.file = file
        lines = LineReader(GzipSource(file: file, path: path))
    }

    deinit { gzclose(file) }

    /// The next line without its terminator, or nil at the end of the file.
    func nextLine() throws(DatasetError) -> [UInt8]? {
        let line: LineReader<GzipSource>.Line?
        do throws(DatasetError) { line = try lines.next() } catch {
            guard case .unreadableInput(_, let reason) = error else { throw error }
            throw .unreadableInput(path: path, reason: "after line \(lineNumber): \(reason)")
        }
        guard let bytes = line?.bytes else { return nil }
        return bytes.last == 13 ? Array(bytes.dropLast()) : Array(bytes)
    }

    /// The next bytes of the file as they come (for formats not split by lines: a JSON array), or nil at the end.
    func nextChunk() throws(DatasetError) -> ArraySlice<UInt8>? { try lines.nextChunk() }
}

/// zlib's inflated (or passed-through) bytes of an open gzFile.
struct GzipSource: ByteSource {
    let file: gzFile
    let path: String

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(DatasetError) -> Int {
        let n = gzread(file, buffer.baseAddress, UInt32(buffer.count))
        guard n >= 0 else {
            var code: Int32 = 0
            let message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
            throw .unreadableInput(path: path, reason: message)
        }
        return Int(n)
    }
}
