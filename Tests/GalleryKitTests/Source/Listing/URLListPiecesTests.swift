import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A URL list is parsed a piece at a time (memory holds one piece); line numbers stay those of the
/// whole list, and a shard still takes lines i mod N.
@Suite struct URLListPiecesTests {
    static func drain(_ text: String, shard: ShardSpec) -> (photos: [Photo], lines: [Int], rejected: [Int], pieces: Int) {
        var pieces = URLListPieces(text: text, shard: shard)
        var result: ([Photo], [Int], [Int], Int) = ([], [], [], 0)
        while let piece = pieces.next() {
            result.0 += piece.list.photos
            result.1 += piece.list.lines.map { piece.lines[$0] }
            result.2 += piece.list.rejected.map { piece.lines[$0.line - 1] + 1 }
            result.3 += 1
        }
        return result
    }

    @Test func piecesGiveWhatOneParseGives() {
        var lines = (0..<2_500).map { "http://127.0.0.1/p/\($0).jpg" }
        lines[7] = "# a comment"
        lines[1_001] = "ftp://example.com/x.jpg"
        lines[2_001] = "  "
        let text = "\u{FEFF}" + lines.joined(separator: "\r\n") + "\n"
        let whole = URLListParser(parsing: text)
        let pieces = Self.drain(text, shard: .whole)
        #expect(pieces.pieces == 3)
        #expect(pieces.photos == whole.photos && pieces.lines == whole.lines)
        #expect(pieces.rejected == whole.rejected.map(\.line) && pieces.rejected == [1_002])
        for shard in [try! ShardSpec(index: 1, count: 4), try! ShardSpec(index: 3, count: 4)] {
            let sharded = URLListParser(parsing: text, shard: shard)
            let piecewise = Self.drain(text, shard: shard)
            #expect(piecewise.photos == sharded.photos && piecewise.lines == sharded.lines)
            #expect(piecewise.lines.allSatisfy { shard.owns(line: $0) })
        }
        #expect(Self.drain("", shard: .whole).photos.isEmpty)
    }

    /// A byte-order mark belongs to the file's start only: a line that begins with one is not a URL, wherever it
    /// falls, the first line of a later piece included (each piece is parsed as its lines, not as a new file).
    @Test func aByteOrderMarkInsideTheListIsPartOfItsLine() {
        var lines = (0..<2_100).map { "http://127.0.0.1/p/\($0).jpg" }
        lines[500] = "\u{FEFF}" + lines[500]
        lines[1_000] = "\u{FEFF}" + lines[1_000]  // the first line of the second piece
        let text = "\u{FEFF}" + lines.joined(separator: "\n")
        let whole = URLListParser(parsing: text)
        let pieces = Self.drain(text, shard: .whole)
        #expect(whole.rejected.map(\.line) == [501, 1_001])
        #expect(pieces.rejected == [501, 1_001])
        #expect(pieces.photos == whole.photos && pieces.lines == whole.lines)
    }
}
