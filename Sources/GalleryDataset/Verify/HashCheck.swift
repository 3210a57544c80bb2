import GalleryImaging

/// One row's `--verify-hash` check, with `--verify-phash` behind it: the bytes' hash equal to the one the row
/// expects passes (`verified_by` the algorithm); otherwise, with `--verify-phash`, an image whose pHash is within
/// `--phash-distance` bits of the row's passes (`verified_by` `phash`); anything else fails as img2dataset fails
/// it, `failed_to_download` with "hash mismatch" (an image that cannot be decoded to take its pHash too, and a
/// row whose pHash column is empty or not 16 hex digits).
struct HashCheck: Sendable {
    /// img2dataset's message.
    static let mismatch = "hash mismatch"

    enum State: Sendable, Equatable {
        /// No `--verify-hash`.
        case off
        /// The bytes match (the algorithm's name).
        case bytes(String)
        /// The bytes differ; the image's pHash decides.
        case perceptual(PerceptualHash, distance: Int)
        /// The bytes differ and no pHash can vouch.
        case failed
    }

    let state: State

    init(options: DatasetOptions, hash: String?, expected: String?, expectedPHash: String?) {
        guard let verify = options.columns.verifyHash else { state = .off; return }
        if let hash, hash == expected {
            state = .bytes(verify.algorithm)
        } else if options.columns.verifyPHash != nil, let phash = expectedPHash.flatMap({ PerceptualHash(hex: $0.lowercased()) }) {
            state = .perceptual(phash, distance: options.verification.phashDistance)
        } else {
            state = .failed
        }
    }

    /// Whether the row fails before its image is looked at (img2dataset's order: the hash first).
    var failsOnBytes: Bool { state == .failed }

    /// The outcome of a row whose image was refused: a row that only its pHash could vouch for fails as a
    /// mismatch, since its image could not be hashed.
    func refused(_ refusal: ImageRefusal) -> RowOutcome {
        if case .perceptual = state { return .failed(.failedToDownload, Self.mismatch) }
        return .failed(.failedToResize, refusal.message)
    }

    /// What the check says of an image whose pHash is `phash`.
    enum Verdict: Sendable, Equatable {
        /// Kept, `verified_by` this (nil: nothing was verified).
        case pass(verifiedBy: String?)
        /// Fails as a mismatch: the pHash is too far (or was not taken).
        case mismatch
    }

    func verdict(_ phash: PerceptualHash?) -> Verdict {
        switch state {
        case .off, .failed: return .pass(verifiedBy: nil)
        case .bytes(let algorithm): return .pass(verifiedBy: algorithm)
        case .perceptual(let expected, let distance):
            guard let phash, phash.distance(to: expected) <= distance else { return .mismatch }
            return .pass(verifiedBy: DatasetVerification.phashColumn)
        }
    }
}
