extension ShardSpec {
    /// Variables the engines set, read by ``init(environment:count:)``.
    public enum Variable {
        /// Slurm: this task's index in a job array.
        public static let slurmTaskID = "SLURM_ARRAY_TASK_ID"
        /// Slurm: how many tasks the array has.
        public static let slurmTaskCount = "SLURM_ARRAY_TASK_COUNT"
        /// Slurm: the array's lowest index.
        public static let slurmTaskMin = "SLURM_ARRAY_TASK_MIN"
        /// Slurm: the array's highest index.
        public static let slurmTaskMax = "SLURM_ARRAY_TASK_MAX"
        /// Slurm: the array's index step.
        public static let slurmTaskStep = "SLURM_ARRAY_TASK_STEP"
        /// Kubernetes Indexed Job: this pod's completion index (Kubernetes sets no count).
        public static let kubernetesIndex = "JOB_COMPLETION_INDEX"
    }

    /// The shard a cluster engine's environment names, with no arithmetic in the job script.
    ///
    /// - Slurm job arrays: `SLURM_ARRAY_TASK_ID` of `SLURM_ARRAY_TASK_COUNT`. The array must be
    ///   `0-(N-1)` with step 1 (a `%` throttle is fine): any other array would leave shards out or
    ///   repeat them, so it is refused, naming the variables. With `count` given, the task id is the
    ///   shard of `count` whatever the array's shape, so chosen shards can be run again
    ///   (`sbatch --array=3,17` with `--shards 64`).
    /// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX`, with `count` given (the Job's `completions`).
    public init(environment: [String: String], count: Int?) throws(ShardError) {
        typealias V = Variable
        func number(_ name: String) throws(ShardError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw .environment("\(name)=\(text) is not a number")
            }
            return value
        }
        if let id = try number(V.slurmTaskID) {
            if let count {
                try self.init(index: id, count: count)
                return
            }
            guard let total = try number(V.slurmTaskCount) else {
                throw .environment("\(V.slurmTaskID) is set but \(V.slurmTaskCount) is not (Slurm 17.11 or later sets both)")
            }
            let min = try number(V.slurmTaskMin) ?? 0
            let step = try number(V.slurmTaskStep) ?? 1
            let max = try number(V.slurmTaskMax) ?? (total - 1)
            guard min == 0, step == 1, max == total - 1 else {
                throw .environment("the Slurm array must be 0-\(total - 1) with step 1 for \(total) shards "
                    + "(\(V.slurmTaskMin)=\(min), \(V.slurmTaskMax)=\(max), \(V.slurmTaskStep)=\(step), "
                    + "\(V.slurmTaskCount)=\(total)); submit it with sbatch --array=0-\(total - 1), "
                    + "or give --shards N to run chosen shards of N again")
            }
            try self.init(index: id, count: total)
        } else if let index = try number(V.kubernetesIndex) {
            guard let count else {
                throw .environment("\(V.kubernetesIndex) is set but Kubernetes gives no shard count: add --shards N (the Job's completions)")
            }
            try self.init(index: index, count: count)
        } else {
            throw .environment("--shard-from-env: neither \(V.slurmTaskID) (a Slurm job array) nor \(V.kubernetesIndex) "
                + "(a Kubernetes Indexed Job) is set; use --shard K/N outside an engine")
        }
    }
}
