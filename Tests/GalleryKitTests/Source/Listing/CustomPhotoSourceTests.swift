import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// A listing of a library user's own, written against GalleryKit's public API only (this file does not
/// import it `@testable`): an in-memory catalogue handed to the run as ``GalleryJob/Source/custom(_:)``,
/// read in two pages, with one photo whose image is gone.
@Suite struct CustomPhotoSourceTests {
    /// A catalogue held in memory: each page a list of (id, title, image URL).
    struct Catalogue: PhotoSource {
        var pages: [[(id: Int, title: String, url: String)]]
        var name: String { "catalogue" }
        var sourceDescription: String { "in-memory catalogue of \(pages.joined().count) photos" }
        var shardUnit: ShardUnit? { .page }
        var imageURLOrigin: ImageURLOrigin { .user }

        func reader(slice: ShardSpec, context: SourceContext) -> any ListingReader {
            Reader(pages: pages, next: 0, slice: slice)
        }

        struct Reader: ListingReader {
            let pages: [[(id: Int, title: String, url: String)]]
            var next: Int
            let slice: ShardSpec

            mutating func next() async -> ListingStep? {
                while next < pages.count, !slice.owns(page: next + 1) { next += 1 }
                guard next < pages.count else { return nil }
                let number = next + 1
                next += 1
                let photos = pages[number - 1].map { item in
                    SelectedPhoto(photo: Photo(id: item.id, name: item.title), imageURL: URL(string: item.url)!, page: number)
                }
                return .page(ListedPage(number: number, totalPages: pages.count, added: photos.count, photos: photos))
            }
        }
    }

    @Test func aListingOfTheUsersOwnMakesAGallery() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let jpeg = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        for id in [1, 2, 3] { server.route("/own/\(id).jpg") { _, _ in .file(jpeg, etag: "\"\(id)\"", contentType: "image/jpeg") } }
        server.route("/own/4.jpg") { _, _ in .status(404, text: "gone") }
        let catalogue = Catalogue(pages: [
            [(1, "Harbour", server.url("/own/1.jpg")), (2, "Quay", server.url("/own/2.jpg"))],
            [(3, "Lighthouse", server.url("/own/3.jpg")), (4, "Gone", server.url("/own/4.jpg"))],
        ])
        let dir = try TempDirectory()
        var job = GalleryJob(source: .custom(catalogue), folder: dir.file("gallery"))
        job.thumbnailSizes = [64]
        job.workers = 2
        let engine = TransferEngine(configuration: TransferConfiguration())
        defer { engine.shutdown() }
        let summary = try await GalleryRun(job: job, engine: engine).run()
        #expect(summary.pagesFetched == 2)
        #expect(summary.photosOK == 3)
        #expect(summary.photosFailed == 1)
        let manifest = try JSONDecoder().decode(GalleryManifest.self,
                                                from: Data(contentsOf: URL(fileURLWithPath: dir.file("gallery") + "/gallery.json")))
        #expect(manifest.source == catalogue.sourceDescription)
        #expect(manifest.photos.map(\.name) == ["Harbour", "Quay", "Lighthouse", "Gone"])
        #expect(manifest.photos.map(\.status) == [.ok, .ok, .ok, .failed])
        #expect(manifest.photos.last?.error?.contains("404") == true, "\(manifest.photos.last?.error ?? "")")
        #expect(job.source == .custom(catalogue) && job.source != .urlList(text: "", name: ""))
    }
}
