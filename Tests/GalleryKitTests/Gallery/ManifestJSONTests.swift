import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A manifest photo written by hand (``GalleryManifest/Photo/prettyJSON(level:)``, its one coding) is the
/// bytes JSONEncoder's pretty, sorted-keys layout gave when the manifest was `Encodable`
/// (``EncoderFixtures``), alone and as an element of `photos`; a whole `gallery.json` is those elements
/// inside the encoder's frame, and reads back.
@Suite struct ManifestJSONTests {
    static func indented(_ pretty: String) -> String {
        pretty.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
    }

    @Test func generatedPhotosAreTheEncodersBytes() throws {
        let expected = try EncoderFixtures.manifestPhotos()
        #expect(expected.count == 150)
        var samples = JSONSamples(seed: 20)
        for i in 0..<2_000 {
            let photo = samples.manifestPhoto()
            let alone = String(decoding: try photo.prettyJSON(level: 0), as: UTF8.self)
            let element = String(decoding: try photo.element(), as: UTF8.self)
            if i < expected.count {
                #expect(alone == expected[i], "\(alone)\n\(expected[i])")
                #expect(element == Self.indented(expected[i]))
            } else {
                #expect(element == Self.indented(alone))
            }
            #expect(try JSONDecoder().decode(GalleryManifest.Photo.self, from: Data(alone.utf8)) == photo)
        }
    }

    /// A whole manifest: the fixture's photos in the encoder's frame, and the file reads back.
    @Test func wholeManifestIsTheEncodersFrameAroundItsPhotos() throws {
        let expected = try EncoderFixtures.manifestPhotos()
        var samples = JSONSamples(seed: 20)
        var manifest = GalleryManifest(state: GalleryState(), source: "s/\"t\"", generated: Date(timeIntervalSince1970: 0))
        manifest.photos = (0..<expected.count).map { _ in samples.manifestPhoto() }
        let text = "{\n  \"generated\" : \"1970-01-01T00:00:00Z\",\n  \"photos\" : [\n"
            + expected.map(Self.indented).joined(separator: ",\n") + "\n  ],\n  \"source\" : \"s/\\\"t\\\"\"\n}"
        let encoded = try manifest.encoded()
        #expect(String(decoding: encoded, as: UTF8.self) == text)
        #expect(try JSONDecoder().decode(GalleryManifest.self, from: encoded) == manifest)
        manifest.photos = []
        #expect(String(decoding: try manifest.encoded(), as: UTF8.self)
            == "{\n  \"generated\" : \"1970-01-01T00:00:00Z\",\n  \"photos\" : [\n\n  ],\n  \"source\" : \"s/\\\"t\\\"\"\n}")
    }

    @Test func nonFiniteRatingFailsNamingThePhoto() {
        var samples = JSONSamples(seed: 22)
        var photo = samples.manifestPhoto()
        photo.rating = .nan
        #expect(throws: JSONText.NonFinite.self) { try photo.prettyJSON(level: 2) }
        #expect { try photo.element() } throws: { error in
            guard case let GalleryError.encoding(path, reason) = error else { return false }
            return path == GalleryNaming.manifestPath && reason.contains("photo \(photo.id)")
        }
    }
}
