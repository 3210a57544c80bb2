import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A manifest photo written by hand (``GalleryManifest/Photo/prettyJSON(level:)``) is the bytes JSONEncoder's
/// pretty, sorted-keys layout gives, alone and as an element of `photos`; a whole streamed `gallery.json`
/// is ``GalleryManifest/encoded()``'s bytes (GalleryOutputTests).
@Suite struct ManifestJSONTests {
    static func reference(_ photo: GalleryManifest.Photo) throws -> String {
        try JSONTextTests.reference(photo, pretty: true)
    }

    @Test func generatedPhotosAreTheEncodersBytes() throws {
        var samples = JSONSamples(seed: 20)
        for _ in 0..<2_000 {
            let photo = samples.manifestPhoto()
            let alone = String(decoding: try photo.prettyJSON(level: 0), as: UTF8.self)
            let expected = try Self.reference(photo)
            #expect(alone == expected, "\(alone)\n\(expected)")
            let element = try Self.reference(photo).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
            #expect(String(decoding: try GalleryOutput.encodeElement(photo), as: UTF8.self) == element)
        }
    }

    /// Whole manifests of generated photos: the streamed file and the encoder's whole value agree.
    @Test func streamedManifestOfGeneratedPhotosIsTheEncodersBytes() throws {
        var samples = JSONSamples(seed: 21)
        let photos = (0..<300).map { _ in samples.manifestPhoto() }
        var manifest = GalleryManifest(state: GalleryState(), source: "s", generated: Date(timeIntervalSince1970: 0))
        manifest.photos = photos
        var text = "{\n  \"generated\" : \"1970-01-01T00:00:00Z\",\n  \"photos\" : ["
        for (i, photo) in photos.enumerated() {
            text += (i == 0 ? "\n" : ",\n") + String(decoding: try GalleryOutput.encodeElement(photo), as: UTF8.self)
        }
        text += "\n  ],\n  \"source\" : \"s\"\n}"
        #expect(text == String(decoding: try manifest.encoded(), as: UTF8.self))
    }

    @Test func nonFiniteRatingFailsAsTheEncoderFails() {
        var samples = JSONSamples(seed: 22)
        var photo = samples.manifestPhoto()
        photo.rating = .nan
        #expect(throws: JSONText.NonFinite.self) { try photo.prettyJSON(level: 2) }
        #expect(throws: GalleryError.self) { try GalleryOutput.encodeElement(photo) }
    }
}
