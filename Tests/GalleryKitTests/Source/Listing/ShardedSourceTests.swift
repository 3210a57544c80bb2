import Foundation
import GalleryTestSupport
import GallerySync
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// ``ShardedSource`` over each listing kind: the shards of a listing together read it whole, each photo
/// once, each shard only its own pages or lines; a slice of a slice is the composed shard; a cursor
/// listing refuses to be divided.
@Suite struct ShardedSourceTests {
    static let shards = (0..<3).map { try! ShardSpec(index: $0, count: 3) }

    /// A URL list of 25 lines: a comment, a bad URL and a repeated URL among them.
    static let list: String = {
        var lines = (0..<25).map { "http://127.0.0.1:9/p/\($0).jpg" }
        lines[4] = "# a comment"
        lines[9] = "ftp://example.com/x.jpg"
        lines[17] = lines[3]
        return lines.joined(separator: "\n")
    }()

    @Test func urlListShardsTogetherReadTheWholeList() async throws {
        let engine = ListingKit.idleEngine()
        defer { engine.shutdown() }
        let client = SourceClient(engine: engine)
        let source = URLListFileSource(text: Self.list, fileName: "list.txt")
        let whole = ListingKit.photos(await ListingKit.steps(source, shard: nil, client: client))
        #expect(whole.count == 22 && whole.map(\.page) == whole.map(\.page).sorted())
        var union: [SelectedPhoto] = []
        for shard in Self.shards {
            let steps = await ListingKit.steps(source, shard: shard, client: client)
            let photos = ListingKit.photos(steps)
            #expect(photos.allSatisfy { shard.owns(line: $0.page - 1) }, "shard \(shard) reads only its own lines")
            #expect(ListingKit.pages(steps).map(\.added) == [photos.count])
            union += photos
        }
        // Line 17 repeats line 3 in another shard: a shard cannot see the other's lines, so both keep it.
        #expect(Set(union.map(\.photo.id)) == Set(whole.map(\.photo.id)))
        #expect(union.count == whole.count + 1 && union.filter { $0.page == 18 }.count == 1)
    }

    @Test func aShardOfAUsableListWithNoLineOfItsOwnIsNotAFailure() async throws {
        let engine = ListingKit.idleEngine()
        defer { engine.shutdown() }
        let client = SourceClient(engine: engine)
        let source = URLListFileSource(text: "http://127.0.0.1:9/a.jpg\nnot a url", fileName: "two.txt")
        let second = await ListingKit.steps(source, shard: try ShardSpec(index: 1, count: 2), client: client)
        #expect(ListingKit.failures(second).isEmpty && ListingKit.pages(second).map(\.skipped) == [["line 2: not an absolute http or https URL"]])
        let empty = URLListFileSource(text: "# nothing\nftp://x/y.jpg", fileName: "none.txt")
        let failed = await ListingKit.steps(empty, shard: try ShardSpec(index: 1, count: 2), client: client)
        #expect(ListingKit.failures(failed) == [ListingFailure(page: nil, reason: "none.txt: no usable http(s) image URL", isSourceError: true)])
        #expect(ListingKit.pages(failed).map(\.counted) == [false])
    }

    @Test func planShardsTogetherReadTheWholePlan() async throws {
        let folder = try TempDirectory()
        let engine = ListingKit.idleEngine()
        defer { engine.shutdown() }
        // The plan of the URL list, made by the run's own plan step.
        var job = GalleryJob(source: .urlList(text: Self.list, name: "list.txt"), folder: folder.path)
        job.workers = 1
        let planned = try await GalleryRun(job: job, engine: engine).plan()
        #expect(planned.photosQueued == 22)
        let client = SourceClient(engine: engine)
        let source = PlanSource(path: PlanFile.path(in: folder.path), recordedSource: "list.txt")
        let whole = ListingKit.photos(await ListingKit.steps(source, shard: nil, client: client))
        #expect(whole.map(\.page) == Array(1...22))
        var union: [Int] = []
        for shard in Self.shards {
            let steps = await ListingKit.steps(source, shard: shard, client: client)
            let photos = ListingKit.photos(steps)
            #expect(photos.allSatisfy { shard.owns(line: $0.page - 1) })
            #expect(ListingKit.pages(steps).map(\.added) == [photos.count] && ListingKit.failures(steps).isEmpty)
            union += photos.map(\.photo.id)
        }
        #expect(union.sorted() == whole.map(\.photo.id).sorted())
    }

    @Test func apiPageShardsReadOnlyTheirOwnPages() async throws {
        let photos = (1...9).map { page in [FakePhoto(id: page * 10), FakePhoto(id: page * 10 + 1)] }
        let api = try FakeAPI(photos)
        let engine = PipelineKit.engine()
        defer { engine.shutdown() }
        let source = PageAPISource(api: FiveHundredPxService(base: api.baseURL, pageAttempts: 1))
        let steps = await ListingKit.steps(source, shard: Self.shards[1], client: SourceClient(engine: engine))
        #expect(ListingKit.pages(steps).map(\.number) == [2, 5, 8])
        #expect(ListingKit.photos(steps).map(\.photo.id) == [20, 21, 50, 51, 80, 81])
        #expect(api.requestedPages.sorted() == [2, 5, 8])
        // A slice of a slice: shard 0/3 of shard 1/2 (pages 2, 4, 6, 8, ...) owns pages 2, 8, 14: (p - 1) mod 6 == 1.
        let nested = ShardedSource(base: ShardedSource(base: source, shard: try ShardSpec(index: 1, count: 2)),
                                   shard: try ShardSpec(index: 0, count: 3))
        let nestedSteps = await ListingKit.steps(nested, shard: nil, client: SourceClient(engine: engine), pages: 9)
        #expect(ListingKit.pages(nestedSteps).map(\.number) == [2, 8])
    }

    @Test func aCursorListingIsNotDivided() async throws {
        let engine = ListingKit.idleEngine()
        defer { engine.shutdown() }
        let client = SourceClient(engine: engine)
        let source = ServiceSource(service: CannedService(batches: [[CannedService.photo(1)], [CannedService.photo(2)]]))
        let refused = await ListingKit.steps(source, shard: Self.shards[0], client: client)
        #expect(refused.count == 1)
        #expect(ListingKit.failures(refused).first?.isSourceError == true)
        #expect(ListingKit.failures(refused).first?.reason.contains("canned lists by its own cursor") == true)
        // The whole job as one shard is the listing itself.
        let whole = await ListingKit.steps(source, shard: .whole, client: client)
        #expect(ListingKit.photos(whole).map(\.photo.id) == [1, 2])
    }

    @Test func aSliceOfASliceOwnsWhatBothOwn() throws {
        for (outer, inner) in [(2, 3), (3, 2), (4, 5), (1, 3), (3, 1)] {
            for k in 0..<outer {
                for j in 0..<inner {
                    let a = try ShardSpec(index: k, count: outer), b = try ShardSpec(index: j, count: inner)
                    let both = try a.subdivided(by: b)
                    let owned = (0..<120).filter(a.owns(line:))
                    let expected = owned.enumerated().filter { b.owns(line: $0.offset) }.map(\.element)
                    #expect((0..<120).filter(both.owns(line:)) == expected, "\(a) then \(b)")
                }
            }
        }
        #expect(throws: ShardError.self) { try ShardSpec(index: 0, count: 10_000).subdivided(by: ShardSpec(index: 0, count: 10_000)) }
    }
}
