import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The display rendition (`GalleryPageOptions.displaySize`): made beside the thumbnails from the same
/// decode, shown by the photo page instead of the original (which stays linked), never offered to the
/// index cards, not made for originals no larger, and not made again by a second run.
@Suite struct PipelineDisplayTests {
    /// 1800x1200, 1200x1800 upright from EXIF Orientation 6 (stored 1800x1200), a 600x400 HEIC served as
    /// `.jpg`, and a 227x149 JPEG smaller than the rendition.
    static func photos() -> [FakePhoto] {
        ["exif-orientation/Landscape_1.jpg", "exif-orientation/Portrait_6.jpg", "heif/photo.heic", "libjpeg-turbo/testorig.jpg"]
            .enumerated().map { FakePhoto(id: 40 + $0.offset, corpusFile: $0.element) }
    }

    static func job(_ api: FakeAPI, folder: String, displaySize: Int) -> GalleryJob {
        var job = PipelineKit.job(api, folder: folder, pages: 1, sizes: [128])
        job.pageOptions.displaySize = displaySize
        return job
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try #require(PipelineKit.read(path)), as: UTF8.self)
    }

    @Test func photoPageShowsTheRenditionAndLinksTheOriginal() async throws {
        let photos = Self.photos()
        let api = try FakeAPI([photos])
        let dir = try TempDirectory()
        let summary = try await PipelineKit.run(Self.job(api, folder: dir.path, displaySize: 400))
        #expect(summary.photosOK == 4 && summary.photosFailed == 0)
        // Renditions are not counted as thumbnails.
        #expect(summary.thumbnailsMade == 4)
        let manifest = try PipelineKit.manifest(dir.path)
        let expected: [Int: (Int, Int)?] = [40: (400, 267), 41: (267, 400), 42: (400, 267), 43: nil]
        let index = try Self.text(dir.path + "/index.html")
        for photo in manifest.photos {
            let original = try #require(photo.original)
            let page = try Self.text(dir.path + "/" + GalleryNaming.photoPagePath(id: photo.id, name: photo.name))
            let image = try #require(page.components(separatedBy: "<img ").dropFirst().first?.components(separatedBy: ">").first)
            // The original is one click away on every page.
            #expect(page.contains("href=\"../../\(original)\""), "\(photo.id): no link to the original")
            guard let size = expected[photo.id] ?? nil else {
                // Smaller than the rendition: the original is shown as it is, and nothing was made.
                #expect(photo.thumbnails["400"] == nil)
                #expect(image.contains("src=\"../../\(original)\""), "\(photo.id): \(image)")
                continue
            }
            let rendition = try #require(photo.thumbnails["400"], "\(photo.id) has no display rendition")
            let decoded = try ImageDecoder.decode(fileAt: dir.path + "/" + rendition)
            #expect(decoded.bitmap.width == size.0 && decoded.bitmap.height == size.1 && decoded.orientation == .up,
                    "\(photo.id): rendition \(decoded.bitmap.width)x\(decoded.bitmap.height)")
            #expect(image.contains("src=\"../../\(rendition)\""), "\(photo.id): \(image)")
            #expect(image.contains("../../\(rendition) \(size.0)w"), "\(photo.id): \(image)")
            #expect(!image.contains(original), "\(photo.id): the page still offers the original: \(image)")
            #expect(!index.contains(rendition), "\(photo.id): the index offers the display rendition")
        }
        #expect(manifest.photos.first { $0.id == 42 }?.original?.hasSuffix(".heic") == true)

        // A second run makes nothing; a deleted rendition is made again alone.
        let second = try await PipelineKit.run(Self.job(api, folder: dir.path, displaySize: 400))
        #expect(second.thumbnailsMade == 0)
        let times = PipelineKit.modificationTimes(dir.path, under: "thumbs")
        #expect(times.keys.filter { $0.hasPrefix("400/") }.count == 3, "\(times.keys.sorted())")
        let victim = try #require(manifest.photos.first { $0.id == 40 }?.thumbnails["400"])
        try FileManager.default.removeItem(atPath: dir.path + "/" + victim)
        _ = try await PipelineKit.run(Self.job(api, folder: dir.path, displaySize: 400))
        #expect(FileManager.default.fileExists(atPath: dir.path + "/" + victim))
        let after = PipelineKit.modificationTimes(dir.path, under: "thumbs")
        #expect(after.filter { $0.key != String(victim.dropFirst("thumbs/".count)) } == times.filter { $0.key != String(victim.dropFirst("thumbs/".count)) })
    }

    @Test func sizeZeroShowsTheOriginal() async throws {
        let photos = Array(Self.photos().prefix(1))
        let api = try FakeAPI([photos])
        let dir = try TempDirectory()
        _ = try await PipelineKit.run(Self.job(api, folder: dir.path, displaySize: 0))
        let photo = try #require(try PipelineKit.manifest(dir.path).photos.first)
        #expect(Set(photo.thumbnails.keys) == ["128"])
        let page = try Self.text(dir.path + "/" + GalleryNaming.photoPagePath(id: photo.id, name: photo.name))
        #expect(page.contains("src=\"../../\(try #require(photo.original))\""))
    }

    /// `--format avif,jpeg`: every thumbnail and rendition also as AVIF beside the JPEG, offered by a
    /// `<source type="image/avif">` before the `<img>` on index cards and photo pages; not around an
    /// original (it has no AVIF); a second run makes nothing, a deleted AVIF is made again.
    @Test func avifSourcesComeBeforeTheJPEG() async throws {
        let photos = [Self.photos()[0], Self.photos()[3]]
        let api = try FakeAPI([photos])
        let dir = try TempDirectory()
        var job = Self.job(api, folder: dir.path, displaySize: 400)
        job.extraThumbnailFormats = [.avif]
        _ = try await PipelineKit.run(job)
        let manifest = try PipelineKit.manifest(dir.path)
        let big = try #require(manifest.photos.first { $0.id == 40 })
        let (thumb, rendition) = (try #require(big.thumbnails["128"]), try #require(big.thumbnails["400"]))
        let avif = (String(thumb.dropLast(3)) + "avif", String(rendition.dropLast(3)) + "avif")
        for (file, width) in [(avif.0, 128), (avif.1, 400)] {
            let decoded = try ImageDecoder.decode(fileAt: dir.path + "/" + file)
            #expect(decoded.format == .avif && decoded.bitmap.width == width, "\(file)")
        }
        let index = try Self.text(dir.path + "/index.html")
        #expect(index.contains("<picture><source type=\"image/avif\" srcset=\"\(avif.0)\"><img src=\"\(thumb)\""), "\(index)")
        let page = try Self.text(dir.path + "/" + GalleryNaming.photoPagePath(id: 40, name: big.name))
        #expect(page.contains("<picture><source type=\"image/avif\" srcset=\"../../\(avif.0) 128w, ../../\(avif.1) 400w\""), "\(page)")
        #expect(page.contains("<img src=\"../../\(rendition)\""))
        let small = try #require(manifest.photos.first { $0.id == 43 })
        let smallPage = try Self.text(dir.path + "/" + GalleryNaming.photoPagePath(id: 43, name: small.name))
        #expect(!smallPage.contains("<picture>"), "the original has no AVIF to offer")

        let second = try await PipelineKit.run(job)
        #expect(second.thumbnailsMade == 0)
        try FileManager.default.removeItem(atPath: dir.path + "/" + avif.1)
        _ = try await PipelineKit.run(job)
        #expect(FileManager.default.fileExists(atPath: dir.path + "/" + avif.1), "the deleted AVIF rendition was not made again")
    }

    /// A photo smaller than the display size gets no rendition, so its one decode is the thumbnails' own,
    /// reduced in the codec: the 227x149 JPEG at 64 px decodes at 1/2, whatever the display size. Its
    /// thumbnail is the same file as a run without display pictures makes.
    @Test func aPhotoSmallerThanTheRenditionDecodesForItsThumbnails() async throws {
        let small = [FakePhoto(id: 43, corpusFile: "libjpeg-turbo/testorig.jpg")]
        var thumbnails: [[UInt8]] = []
        for displaySize in [400, 0] {
            let api = try FakeAPI([small])
            let dir = try TempDirectory()
            var job = PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64])
            job.pageOptions.displaySize = displaySize
            let summary = try await PipelineKit.run(job)
            #expect(summary.photosOK == 1)
            let photo = try #require(try PipelineKit.manifest(dir.path).photos.first)
            #expect(photo.thumbnails.count == 1)
            let thumbnail = try #require(photo.thumbnails["64"])
            thumbnails.append(try #require(PipelineKit.read(dir.path + "/" + thumbnail)))
        }
        let same = thumbnails[0] == thumbnails[1]
        #expect(same, "the display size changed how a photo smaller than it was decoded")
    }
}
