import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The viewer's pages as written: neighbours and the way back by `rel`, EXIF shown as text, the
/// location only when asked, thumbnails eager then lazy, index pages linked by `rel`, viewer.js.
@Suite struct ViewerPageTests {
    static let exif = ExifMetadata(make: "Canon", model: "Canon EOS R5", lens: "<img src=x onerror=alert(1)>",
                                   exposureTime: 1.0 / 250, fNumber: 8, iso: 200, focalLength: 35,
                                   dateTaken: "2024-05-01T14:30:05+02:00", latitude: 48.85837, longitude: -2.294481, altitude: 35)

    /// `count` finished photos, ids 1..., each with 256 and 512 thumbnails and the EXIF above.
    static func state(_ count: Int) -> GalleryState {
        var state = GalleryState()
        for id in 1...count {
            let name = "Photo \(id)"
            state.apply(.seen(PhotoMetadata(id: id, name: name, photographer: "Ann", sourceURL: "https://h/\(id).jpg")))
            state.apply(.original(id: id, file: OriginalFile(path: GalleryNaming.originalPath(id: id, name: name, extension: "jpg"),
                                                             sha256: "ab", bytes: 2_000_000, width: 1600, height: 1200, exif: exif)))
            for size in [256, 512] {
                state.apply(.thumbnail(id: id, file: ThumbnailFile(size: size, path: GalleryNaming.thumbnailPath(id: id, name: name, size: size),
                                                                 width: size, height: size * 3 / 4)))
            }
        }
        return state
    }

    static func page(_ folder: TemporaryFolder, _ id: Int) throws -> String {
        try folder.read(GalleryNaming.photoPagePath(id: id, name: "Photo \(id)"))
    }

    @Test func photoPagesLinkNeighboursAndTheirIndexPageByRel() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        var writer = GalleryWriter(folder: folder.path, source: "s")
        writer.pageOptions = GalleryPageOptions(photosPerIndexPage: 2)
        try writer.write(Self.state(5))
        let third = try Self.page(folder, 3)
        #expect(third.contains("<a href=\"../../index-2.html#p3\" rel=\"up\">"), "photo 3 is on index page 2")
        #expect(third.contains("href=\"../../pages/002/2-photo-2.html\" rel=\"prev\" class=\"prev\""))
        #expect(third.contains("href=\"../../pages/004/4-photo-4.html\" rel=\"next\" class=\"next\""))
        // The next photo's image, for the script to preload with the same srcset the next page uses.
        #expect(third.contains("data-src=\"../../photos/004/4-photo-4.jpg\""))
        #expect(third.contains("data-srcset=\"../../thumbs/256/004/4-photo-4.jpg 256w, ../../thumbs/512/004/4-photo-4.jpg 512w, ../../photos/004/4-photo-4.jpg 1600w\""))
        #expect(try Self.page(folder, 5).contains("rel=\"next\"") == false)
        #expect(try Self.page(folder, 1).contains("rel=\"prev\"") == false)
        #expect(try Self.page(folder, 5).contains("index-3.html#p5"))
        // The index pages link each other by rel at top and bottom; the script is written once.
        let second = try folder.read("index-2.html")
        #expect(second.components(separatedBy: "href=\"index.html\" rel=\"prev\"").count == 3)
        #expect(second.components(separatedBy: "href=\"index-3.html\" rel=\"next\"").count == 3)
        #expect(second.contains("<li class=\"card\" id=\"p3\">"))
        #expect(try folder.read("viewer.js") == ViewerScript.source)
    }

    @Test func exifIsShownAsTextAndTheLocationOnlyWhenAsked() throws {
        for showLocation in [false, true] {
            let folder = TemporaryFolder()
            defer { folder.remove() }
            var writer = GalleryWriter(folder: folder.path, source: "s")
            writer.pageOptions = GalleryPageOptions(showLocation: showLocation)
            try writer.write(Self.state(1))
            let page = try Self.page(folder, 1)
            for row in ["<dt>Camera</dt><dd><bdi>Canon EOS R5</bdi></dd>", "<dt>Exposure</dt><dd>1/250 s</dd>",
                        "<dt>Aperture</dt><dd>f/8</dd>", "<dt>ISO</dt><dd>200</dd>", "<dt>Focal length</dt><dd>35 mm</dd>",
                        "<dt>Taken</dt><dd><time datetime=\"2024-05-01T14:30:05+02:00\">2024-05-01 14:30:05+02:00</time></dd>",
                        "<dt>Lens</dt><dd><bdi>&lt;img src=x onerror=alert(1)&gt;</bdi></dd>"] {
                #expect(page.contains(row), "\(row)")
            }
            #expect(page.contains("48.85837° N, 2.29448° W, 35 m") == showLocation)
            #expect(page.contains("Original file</a> (JPG, 1600 × 1200, 2 MB)"))
            let manifest = try JSONDecoder().decode(GalleryManifest.self, from: Data(folder.read("gallery.json").utf8))
            #expect(manifest.photos[0].exif?.lens == "<img src=x onerror=alert(1)>")
            #expect(manifest.photos[0].exif?.latitude == (showLocation ? 48.85837 : nil))
            #expect(try folder.read("gallery.json").contains("\"f_number\" : 8"))
        }
    }

    @Test func firstCardsLoadAtOnceTheRestLazily() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try GalleryWriter(folder: folder.path, source: "s").write(Self.state(IndexPage.eagerCards + 3))
        let index = try folder.read("index.html")
        #expect(index.components(separatedBy: "loading=\"eager\"").count - 1 == IndexPage.eagerCards)
        #expect(index.components(separatedBy: "loading=\"lazy\"").count - 1 == 3)
        #expect(index.contains("sizes=\"\(IndexPage.thumbnailSizes)\""))
        // Every image has its size, so nothing moves while the page loads.
        let images = index.components(separatedBy: "<img ").dropFirst()
        #expect(images.count == IndexPage.eagerCards + 3)
        #expect(images.allSatisfy { $0.contains("width=\"256\" height=\"192\"") })
    }

    @Test func exifNumbersAreFormattedAsCamerasShowThem() {
        #expect(ExifList.exposure(1.0 / 250) == "1/250 s" && ExifList.exposure(0.3) == "1/3 s" && ExifList.exposure(2.5) == "2.5 s")
        #expect(ExifList.number(2.8, decimals: 1) == "2.8" && ExifList.number(8, decimals: 1) == "8")
        #expect(ExifList.camera(make: "NIKON CORPORATION", model: "NIKON D750") == "NIKON D750")
        #expect(ExifList.camera(make: "Apple", model: "iPhone 15") == "Apple iPhone 15")
        #expect(ExifList(exif: ExifMetadata(latitude: 1, longitude: 2), showLocation: false).node() == nil)
    }
}
