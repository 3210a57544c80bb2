import Glibc
import Testing
@testable import GallerySystem

/// The one line reader: lines and their offsets across chunk boundaries, a last line without a newline,
/// empty lines, and raw chunks for formats not split by lines.
@Suite struct LineReaderTests {
    /// A source that hands out at most `step` bytes a read, so lines straddle every boundary.
    struct Trickle: ByteSource {
        var bytes: [UInt8]
        var position = 0
        let step: Int
        mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            let n = min(step, buffer.count, bytes.count - position)
            bytes.withUnsafeBytes { raw in buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[position..<position + n])) }
            position += n
            return n
        }
    }

    static func lines(_ text: String, step: Int, chunk: Int) throws -> [(Int64, String, Bool)] {
        let reader = LineReader(Trickle(bytes: Array(text.utf8), step: step), chunkSize: chunk)
        var out: [(Int64, String, Bool)] = []
        while let line = reader.next() { out.append((line.offset, String(decoding: line.bytes, as: UTF8.self), line.terminated)) }
        return out
    }

    @Test(arguments: [(1, 1), (3, 4), (5, 2), (64, 64)])
    func linesAndOffsetsWhateverTheChunks(step: Int, chunk: Int) throws {
        let got = try Self.lines("ab\n\ncdef\ng", step: step, chunk: chunk)
        #expect(got.map(\.0) == [0, 3, 4, 9])
        #expect(got.map(\.1) == ["ab", "", "cdef", "g"])
        #expect(got.map(\.2) == [true, true, true, false])
    }

    @Test func aFileEndingInANewlineHasNoUnterminatedLine() throws {
        let dir = try TestFolder()
        try dir.write(Array("one\ntwo\n".utf8), to: "f")
        let reader = try LineReader(path: dir.file("f"))
        #expect(try reader.next().map { Array($0.bytes) } == Array("one".utf8))
        #expect(try reader.next()?.terminated == true)
        #expect(reader.lineNumber == 2)
        #expect(reader.offset == 8)
        #expect(try reader.next() == nil)
    }

    @Test func chunksHandOnWhatIsBufferedThenTheRest() throws {
        let reader = LineReader(Trickle(bytes: Array("[1,\n2]".utf8), step: 100), chunkSize: 100)
        #expect(reader.next().map { Array($0.bytes) } == Array("[1,".utf8))
        #expect(reader.nextChunk().map(Array.init) == Array("2]".utf8))
        #expect(reader.nextChunk() == nil)
    }

    @Test func aMissingFileThrowsFromOpen() throws {
        let dir = try TestFolder()
        #expect(throws: SystemError(call: "open", path: dir.file("none"), errno: ENOENT)) { try LineReader(path: dir.file("none")) }
    }
}
