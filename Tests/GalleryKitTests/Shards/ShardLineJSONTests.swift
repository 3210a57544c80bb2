import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A shard's photo line is written by hand (``GalleryState/Entry/shardLine(comments:)``, the entry's one
/// coding) and is the bytes JSONEncoder wrote when shards had a photo type of their own
/// (``EncoderFixtures``), so a part written by either version merges alike (the merge reads it with
/// JSONDecoder).
@Suite struct ShardLineJSONTests {
    @Test func generatedEntriesAreTheEncodersBytesAndReadBack() throws {
        let expected = try EncoderFixtures.lines("shard-lines.jsonl")
        #expect(expected.count == 150)
        var samples = JSONSamples(seed: 40)
        var withComments = 0
        for i in 0..<expected.count {
            let entry = samples.entry()
            let comments = samples.chance(20) ? (0..<samples.int(1...3)).map { _ in samples.comment() } : nil
            let line = String(decoding: try entry.shardLine(comments: comments), as: UTF8.self)
            #expect(line == expected[i])
            let read = try JSONDecoder().decode(ShardLine.self, from: Data(line.utf8))
            #expect(read.entry == entry)
            #expect(read.page == (entry.metadata.page ?? 0))
            #expect(read.comments == (comments ?? []))
            if comments != nil { withComments += 1 }
        }
        #expect(withComments > 10)
    }

    @Test func noCommentsAndNoMembersLeaveThemOut() throws {
        let entry = GalleryState.Entry(metadata: PhotoMetadata(id: 1, name: "n"))
        let expected = #"{"metadata":{"id":1,"name":"n"},"page":0,"thumbnails":[]}"#
        #expect(String(decoding: try entry.shardLine(comments: nil), as: UTF8.self) == expected)
        #expect(String(decoding: try entry.shardLine(comments: []), as: UTF8.self) == expected)
    }

    @Test func aNonFiniteNumberFails() {
        let entry = GalleryState.Entry(metadata: PhotoMetadata(id: 1, name: "n", rating: .nan))
        #expect(throws: JSONText.NonFinite.self) { try entry.shardLine(comments: nil) }
    }
}
