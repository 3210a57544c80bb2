import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A shard's photo line written by hand (``ShardPhoto/json()``) is the bytes JSONEncoder wrote, so a part
/// written by either version merges alike (the merge reads it with JSONDecoder).
@Suite struct ShardPhotoJSONTests {
    @Test func generatedPhotosAreTheEncodersBytes() throws {
        var samples = JSONSamples(seed: 40)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for _ in 0..<2_000 {
            var entry = GalleryState.Entry(metadata: samples.metadata())
            entry.original = samples.chance(70) ? samples.original() : nil
            entry.failure = samples.optionalString()
            for _ in 0..<samples.int(0...3) {
                let thumbnail = samples.thumbnail()
                entry.thumbnails[thumbnail.size] = thumbnail
            }
            let photo = ShardPhoto(entry, comments: nil)
            let line = try #require(try photo.json())
            #expect(String(decoding: line, as: UTF8.self) == String(decoding: try encoder.encode(photo), as: UTF8.self))
            #expect(try JSONDecoder().decode(ShardPhoto.self, from: Data(line)) == photo)
        }
    }

    @Test func photosWithCommentsAreLeftToTheEncoder() throws {
        let photo = ShardPhoto(GalleryState.Entry(metadata: PhotoMetadata(id: 1, name: "n")),
                               comments: [Comment(id: 2, body: "b")])
        #expect(try photo.json() == nil)
    }
}
