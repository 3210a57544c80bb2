import Foundation
import GalleryTestSupport
import Testing

/// The Ray and Spark launchers (`deploy/ray/launch.py`, `deploy/spark/launch.py`) on the real engines
/// in local mode on 2 CPUs: one task per shard, the engine's retries, the merge at the end. Each run
/// starts an engine (Ray: 10-30 s, Spark: a JVM), so Scripts/test runs this suite in a step of its own.
@Suite(.serialized) struct EngineLaunchTests {
    typealias Engine = EngineCLIKit.Engine

    @Test func fourShardsOnRayAndOnSparkEqualOneProcess() async throws {
        for engine in Engine.allCases { try EngineCLIKit.requireEngine(engine) }
        let (server, api) = try await ShardCLIKit.serveDemo()
        defer { server.send(SIGTERM) }
        let dir = try TempDirectory()
        let source = ["--api", api, "--pages", "4", "--sizes", "64,128", "--workers", "1"]
        let one = try ProcessRunner.run(GalleryCLIKit.binary, ["run"] + source + ["--out", dir.file("one"), "--progress", "none"], timeout: 600)
        #expect(one.exitCode == 0, "stderr: \(one.stderrText)")

        for engine in Engine.allCases {
            let out = dir.file(engine.rawValue)
            let job = try EngineCLIKit.launch(engine, shards: 4, ["run"] + source + ["--out", out]).wait(timeout: 600)
            #expect(job.exitCode == 0, "\(engine): \(job.stdoutText.suffix(2000))\n\(job.stderrText.suffix(3000))")
            // Each shard's progress reached the driver, a line at a time.
            for k in 0..<4 {
                #expect(job.stdoutText.contains("shard \(k)/4: started (try 1)") && job.stdoutText.contains("shard \(k)/4: done: "),
                        "\(engine): \(job.stdoutText)")
            }
            #expect(job.stderrText.contains("from 4 of 4 shards"), "\(engine): \(job.stderrText.suffix(2000))")
            try ShardCLIKit.expectSameGallery(dir.file("one"), out)
        }
    }

    @Test(arguments: Engine.allCases)
    func aShardKilledMidwayIsRunAgainByTheEngineAndResumes(engine: Engine) async throws {
        try EngineCLIKit.requireEngine(engine)
        // 4 pages of 2 photos (246 and 347 kB), one download at a time (--jobs 1), trickled at 40 kB/s while
        // shard 1 (page 2: the smaller, then the larger) is killed: once the first is in and the second has
        // outgrown the engine's memory buffer (256 KiB) into a resumable .part file.
        let api = try GalleryCLIKit(pages: 4, perPage: 2,
                                    corpusFiles: ["exif-orientation/Portrait_1.jpg", "exif-orientation/Landscape_1.jpg"])
        func serve(trickle: Bool) throws {
            for (id, file) in api.files {
                let bytes = try Corpus.bytes(file)
                api.server.route(api.imagePath(id)) { _, _ in
                    let response = FaultServer.Response.file(bytes, etag: "\"\(id)\"", contentType: "image/jpeg")
                    return trickle ? response.trickle(bytesPerSecond: 40_000) : response
                }
            }
        }
        let dir = try TempDirectory()
        let source = ["--api", api.server.baseURL, "--pages", "4", "--sizes", "64", "--workers", "1", "--jobs", "1"]
        try serve(trickle: false)
        let one = try ProcessRunner.run(GalleryCLIKit.binary, ["run"] + source + ["--out", dir.file("one"), "--progress", "none"], timeout: 120)
        #expect(one.exitCode == 0, "stderr: \(one.stderrText)")
        let paths = api.pages[1].map { api.imagePath($0) }  // shard 1 of 4 owns page 2
        let sizes = try api.pages[1].map { try Corpus.bytes(api.files[$0]!).count }
        let bytesBefore = paths.map { api.server.bodyBytesSent(path: $0) }
        let requestsBefore = paths.map { api.server.requests(path: $0).count }
        func sent(_ i: Int) -> Int { api.server.bodyBytesSent(path: paths[i]) - bytesBefore[i] }

        try serve(trickle: true)
        let wrapper = try EngineCLIKit.Wrapper(in: dir)
        let out = dir.file("sharded")
        let job = try EngineCLIKit.launch(engine, shards: 4, ["run"] + source + ["--out", out], binary: wrapper.path)
        // One photo in, and part of the other on disk.
        let staging = out + "/.fetch-gallery/shards/1-of-4/staging"
        func partialBytes() -> Int {
            let parts = (FileManager.default.enumerator(atPath: staging)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".part") }
            return parts.compactMap { try? FileManager.default.attributesOfItem(atPath: staging + "/" + $0)[.size] as? Int }.max() ?? 0
        }
        let midway = try await GalleryCLIKit.waitFor(300) { sent(0) >= sizes[0] && sent(1) < sizes[1] && partialBytes() > 0 }
        let state = "\(sent(0)), \(sent(1)) of \(sizes) bytes sent, .part \(partialBytes()) bytes"
        try #require(midway, "shard 1 never got midway (\(state))\n\(job.stdoutText)\n\(job.stderrText.suffix(3000))")
        let victim = try #require(wrapper.runs(of: "1/4").first, "no process ran shard 1/4: \(wrapper.calls())")
        kill(victim.pid, SIGKILL)
        try serve(trickle: false)

        let result = job.wait(timeout: 600)
        #expect(result.exitCode == 0, "\(engine): \(result.stdoutText.suffix(3000))\n\(result.stderrText.suffix(3000))")
        #expect(result.stdoutText.contains("shard 1/4: exited -9") && result.stdoutText.contains("shard 1/4: started (try 2)"),
                "\(result.stdoutText)")
        #expect(wrapper.runs(of: "1/4").count == 2, "\(wrapper.calls())")
        for k in [0, 2, 3] { #expect(wrapper.runs(of: "\(k)/4").count == 1, "\(wrapper.calls())") }
        // The retry took the finished photo from the journal (no request) and asked for the rest of the other.
        #expect(api.server.requests(path: paths[0]).count - requestsBefore[0] == 1)
        let resumed = api.server.requests(path: paths[1]).dropFirst(requestsBefore[1])
        #expect(resumed.count == 2 && resumed.last?.headers["Range"] != nil, "\(resumed.map { $0.headers["Range"] ?? "-" })")
        // The slices of the trickle in flight at the kill are counted but never arrive: within 2%.
        let total = sizes.reduce(0, +)
        #expect(sent(0) + sent(1) <= total + total / 50, "the server sent \(sent(0) + sent(1)) bytes for shard 1's \(total)")
        #expect(result.stderrText.contains("from 4 of 4 shards"), "\(result.stderrText.suffix(2000))")
        try ShardCLIKit.expectSameGallery(dir.file("one"), out)
    }

    @Test(arguments: Engine.allCases)
    func aUsageErrorFailsTheJobWithoutRetries(engine: Engine) throws {
        try EngineCLIKit.requireEngine(engine)
        let dir = try TempDirectory()
        let wrapper = try EngineCLIKit.Wrapper(in: dir)
        let job = try EngineCLIKit.launch(engine, shards: 4, ["run", "--pages", "two", "--out", dir.file("g")], binary: wrapper.path)
            .wait(timeout: 600)
        #expect(job.exitCode == 2, "\(engine): \(job.stdoutText)\n\(job.stderrText.suffix(3000))")
        #expect(job.stderrText.contains("usage error (exit 2); nothing was retried"), "\(job.stderrText.suffix(2000))")
        #expect(!job.stdoutText.contains("(try 2)"), "\(job.stdoutText)")
        let calls = wrapper.calls()
        #expect(!calls.isEmpty && calls.allSatisfy { $0.arguments.hasPrefix("run ") }, "no shard ran, or a merge did: \(calls)")
        for k in 0..<4 { #expect(wrapper.runs(of: "\(k)/4").count <= 1, "\(calls)") }
    }
}
