import CZlib

/// Reads a file line by line through zlib's gzFile, which inflates `.gz` files and passes plain files
/// through unchanged, so every input format streams the same way and no list is ever held whole.
/// Lines end at `\n`; a trailing `\r` is dropped (lists written on Windows).
final class GzipLineReader {
    let path: String
    private let file: gzFile
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var finished = false
    /// 1-based number of the last line returned.
    private(set) var lineNumber = 0

    init(path: String) throws(DatasetError) {
        self.path = path
        guard let file = gzopen(path, "rb") else {
            throw .unreadableInput(path: path, reason: "cannot open (missing or not readable)")
        }
        gzbuffer(file, 1 << 17)
        self.file = file
    }

    deinit { gzclose(file) }

    /// The next line without its terminator, or nil at the end of the file.
    func nextLine() throws(DatasetError) -> [UInt8]? {
        var line: [UInt8] = []
        while true {
            if let newline = buffer[start..<end].firstIndex(of: 10) {
                line.append(contentsOf: buffer[start..<newline])
                start = newline + 1
                return finish(line)
            }
            line.append(contentsOf: buffer[start..<end])
            start = 0
            end = 0
            if finished { return line.isEmpty ? nil : finish(line) }
            let n = buffer.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
            if n < 0 {
                var code: Int32 = 0
                let message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
                throw .unreadableInput(path: path, reason: "after line \(lineNumber): \(message)")
            }
            if n == 0 { finished = true } else { end = Int(n) }
        }
    }

    /// The next bytes of the file as they come (for formats not split by lines: a JSON array), or nil at the end.
    func nextChunk() throws(DatasetError) -> ArraySlice<UInt8>? {
        if start < end {
            defer { start = end }
            return buffer[start..<end]
        }
        if finished { return nil }
        let n = buffer.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
        if n < 0 {
            var code: Int32 = 0
            let message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
            throw .unreadableInput(path: path, reason: message)
        }
        if n == 0 { finished = true; return nil }
        start = Int(n)
        end = Int(n)
        return buffer[0..<Int(n)]
    }

    private func finish(_ line: [UInt8]) -> [UInt8] {
        lineNumber += 1
        return line.last == 13 ? Array(line.dropLast()) : line
    }
}
