import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// What the run asks of its source rather than of the job's kind, seen in whole runs: comments only from
/// a 500px-style API (a shard of it too), the address rule a plan records, the consumer key redacted
/// though only the source carries it.
@Suite struct PipelineSourceTests {
    static let comment = #"{"comments":[{"id":7,"body":"Lovely light at dusk","user":{"username":"ann"}}]}"#

    /// The API, with one comment on photo 1.
    static func api() throws -> FakeAPI {
        let api = try FakeAPI([[FakePhoto(id: 1), FakePhoto(id: 2)]])
        api.server.route("/photos/1/comments") { _, _ in
            .status(200, headers: ["Content-Type": "application/json"], text: Self.comment)
        }
        return api
    }

    static func text(_ path: String) -> String { PipelineKit.read(path).map { String(decoding: $0, as: UTF8.self) } ?? "" }

    @Test func commentsComeFromThe500pxAPIAndItsShards() async throws {
        let api = try Self.api()
        let dir = try TempDirectory()
        var job = PipelineKit.job(api, folder: dir.file("whole"), pages: 1, sizes: [64])
        job.comments = true
        #expect(try await PipelineKit.run(job).photosOK == 2)
        let page = dir.file("whole") + "/" + GalleryNaming.photoPagePath(id: 1, name: "Photo number 1")
        #expect(Self.text(page).contains("Lovely light at dusk"), "the photo's page shows its comment")
        #expect(api.server.requests(path: "/photos/2/comments").count == 1, "asked for every photo")
        job.folder = dir.file("shard")
        job.shard = try ShardSpec(index: 0, count: 2)
        #expect(try await PipelineKit.run(job).photosOK == 2)
        let part = dir.file("shard") + "/" + ShardLayout(folder: job.folder, shard: job.shard!).photosPath
        #expect(Self.text(part).contains("Lovely light at dusk"), "a shard's part carries the comment")
    }

    @Test func aURLListOrAPlanHasNoComments() async throws {
        let api = try Self.api()
        let dir = try TempDirectory()
        var job = GalleryJob(source: .urlList(text: api.base + "/img/1.jpg\n", name: "list.txt"), folder: dir.file("list"))
        job.comments = true
        job.thumbnailSizes = [64]
        #expect(try await PipelineKit.run(job).photosOK == 1)
        var plan = PipelineKit.job(api, folder: dir.file("plan"), pages: 1, sizes: [64])
        let engine = PipelineKit.engine()
        defer { engine.shutdown() }
        #expect(try await GalleryRun(job: plan, engine: engine).plan().photosQueued == 2)
        plan.source = .plan(path: PlanFile.path(in: plan.folder), source: api.base)
        plan.comments = true
        #expect(try await PipelineKit.run(plan).photosOK == 2)
        #expect(api.server.requests(path: "/photos/1/comments").isEmpty)
    }

    @Test func aPlanKeepsTheAddressRuleOfTheListingItRecords() async throws {
        let api = try Self.api()
        let dir = try TempDirectory()
        let engine = PipelineKit.engine()
        defer { engine.shutdown() }
        var job = PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64])
        #expect(try await GalleryRun(job: job, engine: engine).plan().photosQueued == 2)
        let path = PlanFile.path(in: dir.path)
        job.source = .plan(path: path, source: api.base)
        let fromPlan = GalleryRun(job: job, engine: engine)
        #expect(try await fromPlan.run().photosOK == 2)
        #expect(fromPlan.imageAddressPolicy.rule == .atMostAsPrivateAs(.loopback))
        // The same plan, as if its listing had come from a public address: loopback images are refused.
        let text = Self.text(path)
        #expect(text.contains(#""listing_address":"127.0.0.1""#))
        let other = try TempDirectory()
        let publicPlan = other.file("plan.jsonl")
        try text.replacingOccurrences(of: #""listing_address":"127.0.0.1""#, with: #""listing_address":"203.0.113.9""#)
            .write(toFile: publicPlan, atomically: true, encoding: .utf8)
        job.source = .plan(path: publicPlan, source: api.base)
        job.folder = other.file("gallery")
        let summary = try await GalleryRun(job: job, engine: engine).run()
        #expect(summary.photosOK == 0 && summary.photosFailed == 2)
        #expect(try PipelineKit.manifest(job.folder).photos.allSatisfy { $0.error?.contains("the API host is public") == true })
        // A plan of a URL list records no address: its URLs were the user's.
        let listDir = try TempDirectory()
        var list = GalleryJob(source: .urlList(text: api.base + "/img/1.jpg\n", name: "list.txt"), folder: listDir.path)
        #expect(try await GalleryRun(job: list, engine: engine).plan().photosQueued == 1)
        list.source = .plan(path: PlanFile.path(in: listDir.path), source: "list.txt")
        #expect(GalleryRun(job: list, engine: engine).imageAddressPolicy.rule == .atMostAsPrivateAsOrigin)
    }

    @Test func theConsumerKeyIsRedactedThoughOnlyTheSourceCarriesIt() async throws {
        let server = try FaultServer()
        server.route("/photos") { _, _ in .status(404, text: "no such page") }
        let dir = try TempDirectory()
        let key = "consumer-key-zz9876"
        var job = GalleryJob(source: .api(base: URL(string: server.baseURL)!, consumerKey: key), folder: dir.path)
        job.pages = 1
        #expect(job.secrets.isEmpty)
        let summary = try await PipelineKit.run(job)
        let error = try #require(summary.sourceError)
        #expect(error.contains("consumer_key=REDACTED") && !error.contains(key), "\(error)")
        #expect(server.requests(path: "/photos").first?.query?.contains(key) == true, "the key is still sent")
    }
}
