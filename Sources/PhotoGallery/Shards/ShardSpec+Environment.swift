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
        /// AWS Batch: this child's index in an array job, from 0.
        public static let awsBatchIndex = "AWS_BATCH_JOB_ARRAY_INDEX"
        /// AWS Batch: the array job's size.
        public static let awsBatchSize = "AWS_BATCH_JOB_ARRAY_SIZE"
        /// Grid Engine: this task's id in an array job (`qsub -t 1-N`), or `undefined` outside one.
        public static let gridEngineTaskID = "SGE_TASK_ID"
        /// Grid Engine: the array's first task id.
        public static let gridEngineFirst = "SGE_TASK_FIRST"
        /// Grid Engine: the array's last task id.
        public static let gridEngineLast = "SGE_TASK_LAST"
        /// Grid Engine: the array's task id step.
        public static let gridEngineStep = "SGE_TASK_STEPSIZE"
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
    /// - AWS Batch array jobs: `AWS_BATCH_JOB_ARRAY_INDEX` of `AWS_BATCH_JOB_ARRAY_SIZE` (or of `count`).
    /// - Grid Engine array jobs (`qsub -t 1-N`, ids from 1): shard `SGE_TASK_ID - 1` of `SGE_TASK_LAST`;
    ///   the array must start at 1 with step 1, or `count` be given (`qsub -t 4` runs shard 3 again).
    ///   `undefined` (a job that is not an array) is refused.
    /// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX`, with `count` given (the Job's `completions`).
    public init(environment: [String: String], count: Int?) throws(ShardError) {
        let engine = EngineEnvironment(values: environment, count: count)
        if let spec = try engine.slurm() {
            self = spec
        } else if let spec = try engine.awsBatch() {
            self = spec
        } else if let spec = try engine.gridEngine() {
            self = spec
        } else if let spec = try engine.kubernetes() {
            self = spec
        } else {
            typealias V = Variable
            throw .environment("--shard-from-env: none of \(V.slurmTaskID) (a Slurm job array), \(V.awsBatchIndex) "
                + "(an AWS Batch array job), \(V.gridEngineTaskID) (a Grid Engine array job) or \(V.kubernetesIndex) "
                + "(a Kubernetes Indexed Job) is set; use --shard K/N outside an engine")
        }
    }
}

/// The variables of one process's environment, read engine by engine: each reader gives nil when
/// its engine's variables are absent, the shard when they name one, and throws when they are set
/// but cannot be mapped to shards, naming them.
private struct EngineEnvironment {
    typealias V = ShardSpec.Variable
    let values: [String: String]
    /// `--shards N`, when given.
    let count: Int?

    func number(_ name: String) throws(ShardError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw .environment("\(name)=\(text) is not a number")
        }
        return value
    }

    func slurm() throws(ShardError) -> ShardSpec? {
        guard let id = try number(V.slurmTaskID) else { return nil }
        if let count { return try ShardSpec(index: id, count: count) }
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
        return try ShardSpec(index: id, count: total)
    }

    func awsBatch() throws(ShardError) -> ShardSpec? {
        guard let index = try number(V.awsBatchIndex) else { return nil }
        if let count { return try ShardSpec(index: index, count: count) }
        guard let size = try number(V.awsBatchSize) else {
            throw .environment("\(V.awsBatchIndex) is set but \(V.awsBatchSize) is not: give --shards N (the array job's size)")
        }
        guard (0..<size).contains(index) else {
            throw .environment("\(V.awsBatchIndex)=\(index) is not below \(V.awsBatchSize)=\(size)")
        }
        return try ShardSpec(index: index, count: size)
    }

    /// Grid Engine sets its four variables to `undefined` in a job that is not an array.
    func gridEngine() throws(ShardError) -> ShardSpec? {
        guard let text = values[V.gridEngineTaskID] else { return nil }
        if text == "undefined" {
            // Not an array job: another engine may still name the shard (a Kubernetes index in a container).
            guard values[V.kubernetesIndex] == nil else { return nil }
            throw .environment("\(V.gridEngineTaskID)=undefined: this Grid Engine job is not an array job; "
                + "submit it with qsub -t 1-N, or use --shard K/N")
        }
        guard let id = try number(V.gridEngineTaskID) else { return nil }
        if let count { return try ShardSpec(index: id - 1, count: count) }
        func bound(_ name: String) throws(ShardError) -> Int? {
            values[name] == "undefined" ? nil : try number(name)
        }
        let first = try bound(V.gridEngineFirst)
        let last = try bound(V.gridEngineLast)
        let step = try bound(V.gridEngineStep) ?? 1
        guard let first, let last, first == 1, step == 1, (first...last).contains(id) else {
            let shown = [V.gridEngineTaskID, V.gridEngineFirst, V.gridEngineLast, V.gridEngineStep]
                .map { "\($0)=\(values[$0] ?? "(unset)")" }.joined(separator: ", ")
            throw .environment("the Grid Engine array must be 1-N with step 1 (\(shown)); submit it with "
                + "qsub -t 1-N (task id k is shard k-1 of N), or give --shards N to run chosen shards of N again")
        }
        return try ShardSpec(index: id - 1, count: last)
    }

    func kubernetes() throws(ShardError) -> ShardSpec? {
        guard let index = try number(V.kubernetesIndex) else { return nil }
        guard let count else {
            throw .environment("\(V.kubernetesIndex) is set but Kubernetes gives no shard count: add --shards N (the Job's completions)")
        }
        return try ShardSpec(index: index, count: count)
    }
}
