import DatasetFormats
import GalleryRunner
import GalleryTransfer

/// Everything `fetch-gallery dataset` asks: img2dataset's options (same meanings and defaults) plus ours.
public struct DatasetOptions: Sendable {
    public enum IncrementalMode: String, Sendable, CaseIterable { case incremental, overwrite, extend }

    public var urlList: String
    public var inputFormat = DatasetInputFormat(kind: .txt)
    public var columns = DatasetColumns()
    public var outputFolder = "images"
    public var outputFormat = DatasetOutputFormat.files
    public var image = DatasetImageOptions()
    public var numberSamplePerShard = 10_000
    /// img2dataset's `oom_shard_count`: digits of a shard name.
    public var shardNameDigits = 5
    public var computeHash: DatasetHash? = .sha256
    public var extractExif = true
    public var incrementalMode = IncrementalMode.incremental
    /// `--retry-failed`: finished shards with rows that failed to download are rewritten, those rows fetched
    /// again and every other row (its image bytes too) kept as it is.
    public var retryFailed = false
    /// The AI opt-out signals honoured before a body is read (robots.txt, X-Robots-Tag with
    /// `--disallowed-header-directives`, Content-Signal, Content-Usage, TDMRep); nil: none honoured.
    public var optOut: OptOutPolicy? = OptOutPolicy(tokens: ["fetch-gallery"])
    /// `--user-agent-token`, appended to the User-Agent as img2dataset does.
    public var userAgentToken: String?
    /// Resolves every host the run fetches from (nil: libcurl asks the system, per transfer).
    public var resolver: (any NameResolver)?
    /// Connect to link-local addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254); off by default.
    public var allowsLinkLocal = false
    /// `--timeout`: seconds without progress before a download fails (connect, or no byte arriving).
    public var timeout = 10.0
    /// A PEM file of CA certificates trusted for https instead of the system's (downloads and the store).
    public var caCertificates: String?
    /// `--retries`: extra attempts after the first (img2dataset's default 0).
    public var retries = 0
    /// `--max-image-bytes`: a larger body fails (refused from its Content-Length, or cut as it arrives).
    public var maxImageBytes: Int64 = 64 << 20
    /// `--min-speed`: a download that receives fewer bytes a second than this over a `--timeout` window fails
    /// as timed out (a slow drip ends after about one window, not at the deadline); 0 turns it off but for
    /// nothing arriving at all.
    public var minBytesPerSecond = 1024
    /// `--download-deadline`: seconds a download may take in all, retries included; nil: max(60, 6 x `--timeout`).
    public var deadline: Double?
    /// The deadline in force.
    public var effectiveDeadline: Double { deadline ?? max(60, timeout * 6) }
    /// Downloads at once, and per host.
    public var jobs = 64
    public var perHost = 16
    /// Threads decoding, resizing and encoding (0: one per core).
    public var workers = 0
    /// Do only dataset shards i with i mod count == index (`--shard K/N`).
    public var shard: (index: Int, count: Int)?
    /// Dataset shards processed at once (each holds its rows' metadata; more overlap the tail of one with the next).
    public var shardsInFlight = 2
    /// The largest downloaded body held in memory until a worker resizes it; a larger one waits in a file
    /// (in the output folder, or the store's work folder) and is decoded from it mapped, so the rows in flight
    /// hold little memory whatever their images' sizes. Nil: every body in memory.
    public var bodyMemoryLimit: Int? = 512 << 10
    /// The checks beyond img2dataset's: `--verify-phash`, `--compute-phash`, placeholder detection.
    public var verification = DatasetVerification()
    /// The rows kept (`--where`, `--uid-list`); empty: all.
    public var subset = DatasetSubset()

    public init(urlList: String) { self.urlList = urlList }

    /// img2dataset's `arguments_validator` and Resizer checks, in its words where it has them.
    public func validate() throws(DatasetError) {
        try image.validate()
        guard numberSamplePerShard >= 1 else { throw .invalidOption("--number-sample-per-shard must be at least 1") }
        if let verify = columns.verifyHash {
            guard DatasetHash(rawValue: verify.algorithm) != nil else { throw .invalidOption("Invalid hash type \(verify.algorithm)") }
            guard verify.algorithm == computeHash?.rawValue else {
                throw .invalidOption("verify_hash and compute_hash must be the same but got \(verify.algorithm) and \(computeHash?.rawValue ?? "None")")
            }
        }
        try validateVerification()
        if let box = columns.bboxColumn {
            guard inputFormat.kind != .txt else { throw .invalidOption("--bbox-col \(box) needs an input with columns (csv, tsv, json, jsonl, parquet), not txt") }
            guard !DatasetColumns.reserved.contains(box) else { throw .invalidOption("--bbox-col \(box): that name is reserved for the dataset's own columns") }
        }
        let reserved = Set(columns.additional).intersection(DatasetColumns.reserved)
        if !reserved.isEmpty {
            throw .invalidOption("You cannot use in --save-additional-columns the following columns: \(reserved.sorted().joined(separator: ", ")). "
                + "These names are reserved for the dataset's own columns.")
        }
        guard timeout > 0 else { throw .invalidOption("--timeout must be positive") }
        guard retries >= 0 else { throw .invalidOption("--retries must be 0 or more") }
        guard maxImageBytes >= 1 else { throw .invalidOption("--max-image-bytes must be at least 1") }
        guard minBytesPerSecond >= 0 else { throw .invalidOption("--min-speed must be 0 or more") }
        if let deadline, !(deadline > 0) { throw .invalidOption("--download-deadline must be positive") }
        guard jobs >= 1, perHost >= 1, workers >= 0 else { throw .invalidOption("--jobs and --per-host must be at least 1") }
        if let shard, !(shard.count >= 1 && (0..<shard.count).contains(shard.index)) {
            throw .invalidOption("--shard K/N needs 0 <= K < N")
        }
    }

    /// The shard name, img2dataset's `{shard_id:0{oom_shard_count}d}`.
    public func shardName(_ id: Int) -> String {
        let digits = String(id)
        return String(repeating: "0", count: max(0, shardNameDigits - digits.count)) + digits
    }

    /// Digits of the in-shard index in a key: `ceil(log10(number_sample_per_shard))`.
    public var indexDigits: Int {
        var digits = 0
        var power = 1
        while power < numberSamplePerShard { power *= 10; digits += 1 }
        return digits
    }

    /// img2dataset's key: `10^indexDigits * shard + index`, zero-padded to shardNameDigits + indexDigits.
    public func key(shard: Int, index: Int) -> String {
        var power = 1
        for _ in 0..<indexDigits { power *= 10 }
        let text = String(power * shard + index)
        return String(repeating: "0", count: max(0, shardNameDigits + indexDigits - text.count)) + text
    }
}
