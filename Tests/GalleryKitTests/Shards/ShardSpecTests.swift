import Testing
@testable import GalleryKit

@Suite struct ShardSpecTests {
    @Test func parsesKOfN() throws {
        let shard = try ShardSpec(parsing: "3/4")
        #expect(shard.index == 3 && shard.count == 4 && shard.fileStem == "3-of-4")
        for bad in ["4/4", "-1/4", "0/0", "1", "a/b", "1/2/3", "/4", ""] {
            #expect(throws: ShardError.self, "\(bad)") { try ShardSpec(parsing: bad) }
        }
        #expect((try? ShardSpec(parsing: "x"))?.description == nil)
        #expect(ShardError.unreadable("x").description.contains("K/N"))
    }

    @Test func pagesAndLinesAreSplitModuloN() throws {
        let shards = try (0..<3).map { try ShardSpec(index: $0, count: 3) }
        for page in 1...30 { #expect(shards.filter { $0.owns(page: page) }.count == 1) }
        for line in 0..<30 { #expect(shards.filter { $0.owns(line: line) }.count == 1) }
        #expect((1...10).filter(shards[1].owns(page:)) == [2, 5, 8])
        #expect((0..<10).filter(shards[1].owns(line:)) == [1, 4, 7])
    }

    @Test func selectorWalksOnlyItsShardsPages() throws {
        var selector = PhotoSelector(pageLimit: 10, shard: try ShardSpec(index: 2, count: 4))
        var visited: [Int] = []
        while let next = selector.nextPage {
            visited.append(next)
            selector.add(PhotoPage(totalPages: 9, photos: [Photo(id: next, name: "p", imageURL: "http://h/\(next).jpg")]), number: next)
        }
        #expect(visited == [3, 7])
    }

    @Test func slurmArrayGivesTheShard() throws {
        let env = ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "0",
                   "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_STEP": "1"]
        #expect(try ShardSpec(environment: env, count: nil) == ShardSpec(index: 5, count: 8))
        #expect(try ShardSpec(environment: env, count: 8) == ShardSpec(index: 5, count: 8))
        #expect(throws: ShardError.self) { try ShardSpec(environment: env, count: 4) }
        // Running chosen shards again: --array=3,5 with the count given.
        let rerun = ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "3",
                     "SLURM_ARRAY_TASK_MAX": "5", "SLURM_ARRAY_TASK_STEP": "2"]
        #expect(try ShardSpec(environment: rerun, count: 8) == ShardSpec(index: 5, count: 8))
        #expect(throws: ShardError.self) { try ShardSpec(environment: rerun, count: nil) }
    }

    @Test func slurmArraysNotStartingAtZeroWithStepOneAreRefused() {
        let base = ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0",
                    "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_STEP": "1"]
        let broken: [[String: String]] = [
            base.merging(["SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4"]) { $1 },
            base.merging(["SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_MAX": "6"]) { $1 },
            base.merging(["SLURM_ARRAY_TASK_MAX": "9"]) { $1 },  // --array=0-2,9
            base.filter { $0.key != "SLURM_ARRAY_TASK_COUNT" },
        ]
        for env in broken {
            do {
                _ = try ShardSpec(environment: env, count: nil)
                Issue.record("accepted \(env)")
            } catch {
                #expect(error.description.contains("SLURM_ARRAY_TASK"), "\(error)")
            }
        }
    }

    @Test func kubernetesIndexNeedsTheCount() throws {
        let env = ["JOB_COMPLETION_INDEX": "3"]
        #expect(try ShardSpec(environment: env, count: 4) == ShardSpec(index: 3, count: 4))
        #expect(throws: ShardError.self) { try ShardSpec(environment: env, count: nil) }
        #expect(throws: ShardError.self) { try ShardSpec(environment: env, count: 3) }
        do {
            _ = try ShardSpec(environment: [:], count: 4)
            Issue.record("no engine variable accepted")
        } catch {
            #expect(error.description.contains("SLURM_ARRAY_TASK_ID") && error.description.contains("JOB_COMPLETION_INDEX"))
        }
    }
}
