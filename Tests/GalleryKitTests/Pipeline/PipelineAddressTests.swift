import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The image address rule as the pipeline applies it. Tests only reach 127.0.0.1, so the public-API case
/// is set up through the run's internal record of the API's address class (there is no such switch in
/// the product): the run must then refuse every loopback image, without a request reaching the server.
@Suite struct PipelineAddressTests {
    @Test func aLoopbackAPIMayListLoopbackImages() async throws {
        let api = try FakeAPI([[FakePhoto(id: 1), FakePhoto(id: 2)]])
        let dir = try TempDirectory()
        let engine = PipelineKit.engine()
        defer { engine.shutdown() }
        let run = GalleryRun(job: PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64]), engine: engine)
        let summary = try await run.run()
        #expect(summary.photosOK == 2 && summary.photosFailed == 0)
        #expect(run.apiAddressClass.withLock { $0 } == .loopback)
        #expect(run.imageAddressPolicy.rule == .atMostAsPrivateAs(.loopback))
    }

    @Test func aPublicAPICannotMakeTheRunConnectToLoopback() async throws {
        let photos = [FakePhoto(id: 1), FakePhoto(id: 2, corpusFile: "png-suite/basn2c08.png")]
        let api = try FakeAPI([photos])
        let dir = try TempDirectory()
        let engine = PipelineKit.engine()
        defer { engine.shutdown() }
        let run = GalleryRun(job: PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64]), engine: engine)
        // As if the listing had come from a public address (TEST-NET-3); the loopback page fetched
        // during the run cannot loosen it: the most public class seen counts.
        run.noteAPIAddress("203.0.113.9")
        let summary = try await run.run()
        #expect(summary.photosOK == 0 && summary.photosFailed == 2)
        #expect(run.apiAddressClass.withLock { $0 } == .publicInternet)
        let manifest = try PipelineKit.manifest(dir.path)
        for entry in manifest.photos {
            #expect(entry.status == .failed)
            #expect(entry.error?.contains("refused to connect to 127.0.0.1 (loopback): the API host is public; "
                + "--allow-private-addresses lifts this") == true, "\(entry.error ?? "-")")
        }
        for photo in photos { #expect(api.server.requests(path: photo.imagePath).isEmpty) }
        #expect(PipelineKit.files(dir.path + "/photos").isEmpty)
    }

    @Test func allowPrivateAddressesLiftsTheRule() async throws {
        let api = try FakeAPI([[FakePhoto(id: 1)]])
        let dir = try TempDirectory()
        let engine = PipelineKit.engine()
        defer { engine.shutdown() }
        var job = PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64])
        job.allowPrivateAddresses = true
        let run = GalleryRun(job: job, engine: engine)
        run.noteAPIAddress("203.0.113.9")
        let summary = try await run.run()
        #expect(summary.photosOK == 1)
        #expect(run.imageAddressPolicy == .unrestricted)
    }

    @Test func urlListsUseTheOriginRule() throws {
        let engine = PipelineKit.engine()
        defer { engine.shutdown() }
        let job = GalleryJob(source: .urlList(text: "http://127.0.0.1:1/a.jpg\n", name: "list"), folder: "/nonexistent")
        let run = GalleryRun(job: job, engine: engine)
        #expect(run.imageAddressPolicy.rule == .atMostAsPrivateAsOrigin)
    }

    @Test func theAPIClassOnlyGetsStricter() throws {
        let engine = PipelineKit.engine()
        defer { engine.shutdown() }
        let run = GalleryRun(job: GalleryJob(source: .api(base: URL(string: "http://127.0.0.1:1")!, consumerKey: nil),
                                             folder: "/nonexistent"), engine: engine)
        #expect(run.imageAddressPolicy.rule == .atMostAsPrivateAs(.publicInternet), "unknown fails closed")
        run.noteAPIAddress("127.0.0.1")
        #expect(run.apiAddressClass.withLock { $0 } == .loopback)
        run.noteAPIAddress("10.0.0.8")
        #expect(run.apiAddressClass.withLock { $0 } == .privateNetwork)
        run.noteAPIAddress("127.0.0.1")
        run.noteAPIAddress("not an address")
        #expect(run.apiAddressClass.withLock { $0 } == .privateNetwork)
    }
}
