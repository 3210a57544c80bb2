import Foundation
import GalleryTestSupport
import Testing

/// The Ray and Spark launchers (`deploy/ray/launch.py`, `deploy/spark/launch.py`) on the real engines
/// in local mode on 2 CPUs: one task per shard, the engine's retries, the merge at the end (a gallery) or
/// the summary (a dataset, EngineLaunchTests+Dataset.swift). Each run starts an engine (Ray: 10-30 s,
/// Spark: a JVM), so Scripts/test runs this suite in a step of its own.
@Suite(.serialized) struct EngineLaunchTests {
    typealias Engine = EngineCLIKit.Engine

    @Test func fourShardsOnRayAndOnSparkEqualOneProcess() async throws {
        for engine in Engine.allCases { try EngineCLIKit.requireEngine(engine) }
        let dir = try TempDirectory()
        let (server, source) = try await ShardCLIKit.demoGallery(oneProcessOut: dir.file("one"))
        defer { server.send(SIGTERM) }

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
        // Shard 1 owns page 2: a photo of 246 kB and one of 347 kB, one download at a time (--jobs 1), in
        // either order (the photo tasks start as the scheduler picks them). The second stops after `held`
        // bytes for 12 s (under the run's 15 s low-speed limit), so the kill lands on a state that holds
        // however loaded the machine: the second's first bytes in its .part file (a body over 256 KiB goes to
        // disk as it arrives), the first photo either all in or not asked for yet.
        let catalogue = try KillResumeCatalogue(photos: ["exif-orientation/Portrait_1.jpg", "exif-orientation/Landscape_1.jpg"])
        let server = catalogue.api.server
        let dir = try TempDirectory()
        let arguments = ["run"] + catalogue.source + ["--jobs", "1"]
        try catalogue.runOneProcess(["--jobs", "1"], out: dir.file("one"))
        let (first, second) = (catalogue.victims[0], catalogue.victims[1])
        let sizes = try catalogue.victims.map { try catalogue.size($0) }
        let held = 300_000
        let sentBefore = catalogue.victims.map { catalogue.sent($0) }
        let requestsBefore = catalogue.victims.map { server.requests(path: catalogue.path($0)).count }
        func sent(_ i: Int) -> Int { catalogue.sent(catalogue.victims[i]) - sentBefore[i] }

        try catalogue.serve { response, id in id == second ? response.stall(afterBodyBytes: held, seconds: 12) : response }
        let wrapper = try EngineCLIKit.Wrapper(in: dir)
        let out = dir.file("sharded")
        let job = try EngineCLIKit.launch(engine, shards: 4, arguments + ["--out", out], binary: wrapper.path)
        let staging = out + "/.fetch-gallery/shards/1-of-4/staging"
        func partialBytes() -> Int {
            let parts = (FileManager.default.enumerator(atPath: staging)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".part") }
            return parts.compactMap { try? FileManager.default.attributesOfItem(atPath: staging + "/" + $0)[.size] as? Int }.max() ?? 0
        }
        // As long as the engine takes to start and place shard 1: the wait ends on the state, the job's end or
        // the state passed by (the stall over before the test saw it), each said apart.
        let midway = try await EngineCLIKit.waitFor(job) { [0, sizes[0]].contains(sent(0)) && sent(1) == held && partialBytes() == held }
            passed: { sent(1) > held }
        let state = "\(sent(0)), \(sent(1)) of \(sizes) bytes sent, .part \(partialBytes()) bytes"
        try #require(midway == .reached, "shard 1 never held midway: \(midway) (\(state))\n\(job.stdoutText)\n\(job.stderrText.suffix(3000))")
        let victim = try #require(wrapper.runs(of: "1/4").first, "no process ran shard 1/4: \(wrapper.calls())")
        kill(victim.pid, SIGKILL)
        try catalogue.serve()

        let result = job.wait(timeout: 600)
        #expect(result.exitCode == 0, "\(engine): \(result.stdoutText.suffix(3000))\n\(result.stderrText.suffix(3000))")
        #expect(result.stdoutText.contains("shard 1/4: exited -9") && result.stdoutText.contains("shard 1/4: started (try 2)"),
                "\(result.stdoutText)")
        #expect(wrapper.runs(of: "1/4").count == 2, "\(wrapper.calls())")
        for k in [0, 2, 3] { #expect(wrapper.runs(of: "\(k)/4").count == 1, "\(wrapper.calls())") }
        // The first photo was asked for once in all (the retry took it from the journal when it was in before
        // the kill), and the retry asked for the rest of the other.
        #expect(server.requests(path: catalogue.path(first)).count - requestsBefore[0] == 1)
        let resumed = server.requests(path: catalogue.path(second)).dropFirst(requestsBefore[1])
        #expect(resumed.count == 2 && resumed.last?.headers["Range"] == "bytes=\(held)-", "\(resumed.map { $0.headers["Range"] ?? "-" })")
        #expect(sent(0) + sent(1) == sizes[0] + sizes[1], "the server sent \(sent(0) + sent(1)) bytes for shard 1's \(sizes)")
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
