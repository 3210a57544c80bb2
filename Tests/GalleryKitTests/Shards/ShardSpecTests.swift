import Testing
@testable import GalleryKit
@testable import PhotoGallery

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

    @Test func awsBatchArrayGivesTheShard() throws {
        let env = ["AWS_BATCH_JOB_ARRAY_INDEX": "6", "AWS_BATCH_JOB_ARRAY_SIZE": "10"]
        #expect(try ShardSpec(environment: env, count: nil) == ShardSpec(index: 6, count: 10))
        #expect(try ShardSpec(environment: env, count: 10) == ShardSpec(index: 6, count: 10))
        // A smaller array run again for chosen shards of a larger job: the index is the shard of --shards.
        #expect(try ShardSpec(environment: ["AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "2"], count: 10)
                == ShardSpec(index: 1, count: 10))
        #expect(throws: ShardError.self) { try ShardSpec(environment: env, count: 4) }
    }

    @Test func awsBatchShapesThatCannotBeMappedAreRefusedNamingTheVariables() {
        let broken: [[String: String]] = [
            ["AWS_BATCH_JOB_ARRAY_INDEX": "3"],  // no size
            ["AWS_BATCH_JOB_ARRAY_INDEX": "4", "AWS_BATCH_JOB_ARRAY_SIZE": "4"],
            ["AWS_BATCH_JOB_ARRAY_INDEX": "x", "AWS_BATCH_JOB_ARRAY_SIZE": "4"],
        ]
        for env in broken {
            do {
                _ = try ShardSpec(environment: env, count: nil)
                Issue.record("accepted \(env)")
            } catch {
                #expect(error.description.contains("AWS_BATCH_JOB_ARRAY_"), "\(error)")
            }
        }
    }

    @Test func gridEngineArrayFromOneGivesTheShard() throws {
        let env = ["SGE_TASK_ID": "3", "SGE_TASK_FIRST": "1", "SGE_TASK_LAST": "8", "SGE_TASK_STEPSIZE": "1"]
        #expect(try ShardSpec(environment: env, count: nil) == ShardSpec(index: 2, count: 8))
        #expect(try ShardSpec(environment: env, count: 8) == ShardSpec(index: 2, count: 8))
        // qsub -t 4-7:3 with --shards 8 runs shards 3 and 6 again.
        let rerun = ["SGE_TASK_ID": "7", "SGE_TASK_FIRST": "4", "SGE_TASK_LAST": "7", "SGE_TASK_STEPSIZE": "3"]
        #expect(try ShardSpec(environment: rerun, count: 8) == ShardSpec(index: 6, count: 8))
        #expect(throws: ShardError.self) { try ShardSpec(environment: rerun, count: nil) }
    }

    @Test func gridEngineShapesThatCannotBeMappedAreRefusedNamingTheVariables() throws {
        let base = ["SGE_TASK_ID": "2", "SGE_TASK_FIRST": "1", "SGE_TASK_LAST": "4", "SGE_TASK_STEPSIZE": "1"]
        let broken: [[String: String]] = [
            base.merging(["SGE_TASK_FIRST": "2", "SGE_TASK_LAST": "5"]) { $1 },  // qsub -t 2-5
            base.merging(["SGE_TASK_STEPSIZE": "2", "SGE_TASK_LAST": "7"]) { $1 },  // qsub -t 1-7:2
            base.merging(["SGE_TASK_ID": "0", "SGE_TASK_FIRST": "0"]) { $1 },
            base.filter { $0.key != "SGE_TASK_LAST" },
            ["SGE_TASK_ID": "undefined", "SGE_TASK_FIRST": "undefined", "SGE_TASK_LAST": "undefined", "SGE_TASK_STEPSIZE": "undefined"],
        ]
        for env in broken {
            do {
                _ = try ShardSpec(environment: env, count: nil)
                Issue.record("accepted \(env)")
            } catch {
                #expect(error.description.contains("SGE_TASK_ID") && error.description.contains("qsub -t 1-N"), "\(error)")
            }
        }
        // Not an array job, in a Kubernetes pod: the pod's index names the shard.
        let pod = ["SGE_TASK_ID": "undefined", "JOB_COMPLETION_INDEX": "1"]
        #expect(try ShardSpec(environment: pod, count: 2) == ShardSpec(index: 1, count: 2))
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
            #expect(["SLURM_ARRAY_TASK_ID", "AWS_BATCH_JOB_ARRAY_INDEX", "SGE_TASK_ID", "JOB_COMPLETION_INDEX"]
                .allSatisfy { error.description.contains($0) }, "\(error)")
        }
    }
}
