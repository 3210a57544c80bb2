import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A two-page run against a real HTTP server: originals byte-identical, thumbnails at every size,
/// the pages, the index and a manifest whose facts are checked against the served bytes.
@Suite struct PipelineRunTests {
    /// Display size (after EXIF orientation) of each corpus file used.
    static let displaySize: [String: (Int, Int)] = [
        "exif-orientation/Landscape_1.jpg": (1800, 1200),
        "exif-orientation/Landscape_6.jpg": (1800, 1200),  // stored 1200x1800, rotated on display
        "exif-orientation/Portrait_1.jpg": (1200, 1800),
        "png-suite/basn2c08.png": (32, 32),
        "libjpeg-turbo/testorig.jpg": (227, 149),
        "derived/testorig-progressive.jpg": (227, 149),
    ]

    /// Independent of the product's scaler: longest edge to `edge`, never upscaled, nearest rounding.
    static func expected(_ size: (Int, Int), edge: Int) -> (Int, Int) {
        let (w, h) = size
        let longest = max(w, h)
        guard longest > edge else { return size }
        let other = Int((Double(min(w, h)) * Double(edge) / Double(longest)).rounded())
        return w >= h ? (edge, other) : (other, edge)
    }

    @Test func twoPagesMakeACompleteGallery() async throws {
        let files = Array(Self.displaySize.keys).sorted()
        let photos = files.enumerated().map { index, file in
            var p = FakePhoto(id: 1000 + index, name: "Sunset \(index) over the bay", corpusFile: file)
            p.username = "user\(index)"
            p.rating = 50 + Double(index)
            return p
        }
        let api = try FakeAPI([Array(photos[0..<3]), Array(photos[3...])])
        let dir = try TempDirectory()
        let folder = dir.file("gallery")

        let summary = try await PipelineKit.run(PipelineKit.job(api, folder: folder, pages: 2))

        #expect(summary.pagesFetched == 2 && summary.pagesFailed == 0)
        #expect(summary.photosOK == photos.count && summary.photosFailed == 0 && summary.photosQueued == photos.count)
        #expect(summary.thumbnailsMade == photos.count * 2)
        #expect(summary.sourceError == nil && !summary.interrupted)
        #expect(try summary.bytesDownloaded == Int64(photos.map { try $0.bytes.count }.reduce(0, +)))
        #expect(api.requestedPages == [1, 2])

        let manifest = try PipelineKit.manifest(folder)
        #expect(manifest.source == api.baseURL.absoluteString)
        // The API's order, across pages, though the photo tasks run concurrently.
        #expect(manifest.photos.map(\.id) == photos.map(\.id))
        for photo in photos {
            let entry = try #require(manifest.photos.first { $0.id == photo.id })
            #expect(entry.status == .ok && entry.error == nil)
            #expect(entry.name == photo.name)
            #expect(entry.photographer == photo.username)
            #expect(entry.rating == photo.rating)
            #expect(entry.sourceURL == api.base + photo.imagePath)
            // The original: byte-identical to what the server sent, in photos/, hashed correctly.
            let original = try #require(entry.original)
            #expect(original.hasPrefix("photos/\(GalleryNaming.bucket(id: photo.id))/\(photo.id)-"))
            let saved = try #require(PipelineKit.read(folder + "/" + original))
            #expect(try saved == photo.bytes, "\(original) differs from \(photo.corpusFile)")
            #expect(try entry.sha256 == SHA256Reference.hex(photo.bytes))
            #expect(try entry.bytes == photo.bytes.count)
            let display = try #require(Self.displaySize[photo.corpusFile])
            #expect(entry.width == display.0 && entry.height == display.1, "\(photo.corpusFile)")
            // Thumbnails: one per size, upright, at the expected size.
            #expect(Set(entry.thumbnails.keys) == ["128", "256"])
            for (key, path) in entry.thumbnails {
                #expect(path.hasPrefix("thumbs/\(key)/\(GalleryNaming.bucket(id: photo.id))/\(photo.id)-"))
                let info = try ImageDecoder.probe(fileAt: folder + "/" + path)
                let want = Self.expected(display, edge: Int(key)!)
                #expect(info.width == want.0 && info.height == want.1, "\(path): \(info.width)x\(info.height)")
                #expect(info.orientation == .up)
            }
            // Its own page, linked from the index.
            let page = GalleryNaming.photoPagePath(id: photo.id, name: photo.name)
            let html = try String(contentsOfFile: folder + "/" + page, encoding: .utf8)
            #expect(html.contains(photo.username))
        }
        let index = try String(contentsOfFile: folder + "/index.html", encoding: .utf8)
        var previous = index.startIndex
        for photo in photos {
            // Linked in listing order, with the 256 px thumbnail shown.
            let link = try #require(index.range(of: GalleryNaming.photoPagePath(id: photo.id, name: photo.name)))
            #expect(link.lowerBound >= previous, "photo \(photo.id) out of order in index.html")
            previous = link.lowerBound
            #expect(index.contains(manifest.photos.first { $0.id == photo.id }!.thumbnails["256"]!))
        }
        // Nothing left behind but the gallery itself.
        let leftovers = PipelineKit.files(folder).filter { $0.hasSuffix(".part") || $0.hasSuffix(".meta") || $0.contains(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}

/// SHA-256 from the `sha256sum` tool, so the manifest's hash is checked against an independent implementation.
enum SHA256Reference {
    static func hex(_ bytes: [UInt8]) -> String {
        let dir = try! TempDirectory(prefix: "sha")
        let path = try! dir.write(bytes, to: "data")
        let result = try! ProcessRunner.run("sha256sum", [path], timeout: 10)
        return String(result.stdoutText.prefix(64))
    }
}
