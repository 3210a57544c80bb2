import Foundation
import GallerySync
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import GalleryDataset

/// A shard whose last rows are slow gives its place to the next shard once every row of it has started: the
/// next shard's rows run beside the straggler instead of waiting for it.
@Suite struct ShardStragglerTests {
    /// Shard events in the order they came.
    final class Events: DatasetRunObserver {
        let seen = Locked<[String]>([])
        func shardStarted(name: String, rows: Int) { seen.withLock { $0.append("started \(name)") } }
        func rowFinished(failed: Bool) {}
        func shardFinished(name: String, count: Int, successes: Int) { seen.withLock { $0.append("finished \(name)") } }
        func shardSkipped(name: String, rows: Int, done: Bool) {}
    }

    @Test func theNextShardStartsWhileAStragglerOfTheLastOneFinishes() async throws {
        let server = try FaultServer()
        let jpeg = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        server.route("/ok.jpg") { _, _ in .file(jpeg, contentType: "image/jpeg") }
        // Half the body, then nothing for 3 s, then the rest: a row that succeeds late.
        server.route("/slow.jpg") { _, _ in .file(jpeg, contentType: "image/jpeg").stall(afterBodyBytes: jpeg.count / 2, seconds: 3) }
        let dir = try TempDirectory(prefix: "straggler")
        defer { dir.remove() }
        // One shard place: shard 00000 (its first row slow), then 00001 and 00002.
        let urls = ["slow", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"].enumerated().map { "\(server.baseURL)/\($1).jpg?\($0)" }
        var options = DatasetOptions(urlList: try dir.write(Array((urls.joined(separator: "\n") + "\n").utf8), to: "list.txt"))
        options.outputFolder = dir.file("out")
        options.outputFormat = .files
        options.optOut = nil
        options.numberSamplePerShard = 3
        options.shardsInFlight = 1
        options.timeout = 20
        let events = Events()
        let run = try DatasetRun(options: options, sink: try LocalFolderSink(folder: options.outputFolder))
        let summary = try await run.run(observer: events)
        #expect(summary.successes == 9)
        let seen = events.seen.withLock { $0 }
        // Held to its end, the place kept 00001 and 00002 waiting the 3 s of the slow row: 00000 finished first.
        #expect(seen.firstIndex(of: "finished 00002")! < seen.firstIndex(of: "finished 00000")!, "\(seen)")
        // One place: a shard starts only once the one before has started every row (here, after it started).
        #expect(seen.firstIndex(of: "started 00001")! > seen.firstIndex(of: "started 00000")!, "\(seen)")
    }
}
