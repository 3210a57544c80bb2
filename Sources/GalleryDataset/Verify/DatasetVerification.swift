/// What `fetch-gallery dataset` checks of a download beyond img2dataset's `--verify-hash`: a perceptual hash
/// that keeps a re-encoded copy whose bytes changed, and hosts that answer many dead links with one placeholder.
public struct DatasetVerification: Sendable, Equatable {
    /// The metadata column of each success's pHash (`--compute-phash`, or the `--verify-phash` column kept).
    public static let phashColumn = "phash"
    /// The metadata column saying which check a verified row passed: the `--verify-hash` algorithm, or `phash`.
    public static let verifiedByColumn = "verified_by"
    /// The default `--phash-distance`: the largest Hamming distance, of 64 bits, between the pHash a row
    /// expects and the one of the image it got for the image to count as the same photo. On the repository's
    /// photographs, copies re-encoded, resized to a tenth or recompressed differ by at most 10 bits and two
    /// different photographs by at least 20 (DatasetPerceptualVerifyTests measures both); the gallery's
    /// near duplicates use the same bound.
    public static let defaultPHashDistance = 10

    /// `--compute-phash`: record each success's pHash in a `phash` column (so that a later run can verify by it).
    public var computesPHash = false
    /// `--phash-distance`.
    public var phashDistance = defaultPHashDistance
    /// Placeholder detection (``PlaceholderPolicy``, `--detect-placeholders`); nil: off, the default, since a
    /// list that names one photo at many URLs of one host (a mirror, a test server) would lose those rows, and
    /// img2dataset keeps them.
    public var placeholders: PlaceholderPolicy?

    public init() {}
}

extension DatasetOptions {
    /// Whether each success's pHash is taken and recorded (`--compute-phash` or `--verify-phash`).
    var recordsPHash: Bool { verification.computesPHash || columns.verifyPHash != nil }

    /// Whether rows carry the `verified_by` column: verification by pHash is on.
    var recordsVerifiedBy: Bool { columns.verifyPHash != nil }

    /// The checks of ``DatasetVerification``, naming the flag at fault.
    func validateVerification() throws(DatasetError) {
        if let column = columns.verifyPHash {
            guard columns.verifyHash != nil else {
                throw .invalidOption("--verify-phash \(column) needs --verify-hash: the pHash keeps a row whose bytes differ from the hash it expects")
            }
            guard inputFormat.kind != .txt else { throw .invalidOption("--verify-phash \(column) needs an input with columns (csv, tsv, json, jsonl, parquet), not txt") }
        }
        guard (0...64).contains(verification.phashDistance) else { throw .invalidOption("--phash-distance must be between 0 and 64 (bits of the pHash)") }
        if recordsPHash {
            let taken = Set(columns.additional + [columns.bboxColumn].compactMap { $0 })
                .intersection([DatasetVerification.phashColumn, DatasetVerification.verifiedByColumn])
            if !taken.isEmpty {
                throw .invalidOption("--save-additional-columns \(taken.sorted().joined(separator: ", ")): that name is the pHash's own column with --compute-phash or --verify-phash")
            }
        }
        if let policy = verification.placeholders { try policy.validate() }
    }
}
