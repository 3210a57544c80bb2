import ArgumentParser
import GalleryKit

/// `--shard K/N`, or `--shard-from-env` (with `--shards N` on Kubernetes): which slice of the job
/// this worker does. Declared once here; the run command maps it to a `ShardSpec`.
struct ShardOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        Do shard K of N (K from 0). A gallery: listing pages p with (p-1) mod N = K, URL-list lines i (from 0) \
        with i mod N = K, written to OUT/shards/K-of-N.* instead of the index ('fetch-gallery merge OUT' joins \
        the shards). A dataset: its shards i (--number-sample-per-shard rows each) with i mod N = K, written \
        where the whole run would write them, so N processes make one dataset with no merge.
        """, valueName: "K/N"))
    var shard: String?

    @Flag(name: .customLong("shard-from-env"), help: ArgumentHelp("""
        Take the shard from the cluster engine: SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT (an array \
        submitted as --array=0-(N-1)), AWS_BATCH_JOB_ARRAY_INDEX of AWS_BATCH_JOB_ARRAY_SIZE, SGE_TASK_ID - 1 \
        of SGE_TASK_LAST (Grid Engine, qsub -t 1-N), or a Kubernetes Indexed Job's JOB_COMPLETION_INDEX with --shards N.
        """))
    var fromEnvironment = false

    @Option(name: .customLong("shards"), help: ArgumentHelp(
        "The shard count with --shard-from-env (Kubernetes sets none; with Slurm, AWS Batch or Grid Engine it lets an array of chosen shards, such as --array=3,17, run them again).",
        valueName: "N"))
    var count: Int?

    func validate() throws {
        guard shard == nil || !fromEnvironment else { throw ValidationError("give --shard K/N or --shard-from-env, not both") }
        guard count == nil || fromEnvironment else { throw ValidationError("--shards N goes with --shard-from-env") }
        if let shard {
            do { _ = try ShardSpec(parsing: shard) } catch { throw ValidationError(error.description) }
        }
    }

    /// The shard to do, or nil for the whole job.
    func resolve(environment: [String: String]) throws -> ShardSpec? {
        do {
            if let shard { return try ShardSpec(parsing: shard) }
            if fromEnvironment { return try ShardSpec(environment: environment, count: count) }
            return nil
        } catch {
            throw ValidationError(error.description)
        }
    }
}
