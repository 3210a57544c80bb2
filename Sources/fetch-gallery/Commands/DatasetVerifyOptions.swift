import ArgumentParser
import GalleryKit

/// `dataset`'s checks beyond img2dataset's: the perceptual hash behind `--verify-hash`, and placeholder images.
struct DatasetVerifyOptions: ParsableArguments {
    @Option(name: .customLong("verify-phash"), help: ArgumentHelp("""
        With --verify-hash: a column of each row's 64-bit pHash (16 hex digits, as imagehash.phash prints it, or \
        as --compute-phash records it); a download whose bytes differ is kept when its pHash is within \
        --phash-distance bits. Kept as 'phash'; 'verified_by' says which check passed (the hash's name or phash).
        """, valueName: "COL")) var verifyPHash: String?
    @Option(name: .customLong("phash-distance"), help: ArgumentHelp("Largest Hamming distance (of 64 bits) for --verify-phash.", valueName: "bits"))
    var phashDistance = DatasetVerification.defaultPHashDistance
    @Flag(name: .customLong("compute-phash"), help: "Record each success's pHash in a 'phash' column (for a later --verify-phash).")
    var computePHash = false
    @Flag(name: .customLong("detect-placeholders"), help: ArgumentHelp("""
        Fail as 'placeholder image' the downloads whose bytes one host served for --placeholder-urls different \
        URLs (a dead link's "image not found" picture).
        """)) var detectPlaceholders = false
    @Option(name: .customLong("placeholder-urls"), help: ArgumentHelp("Different URLs of one host with the same bytes that make a placeholder.", valueName: "N"))
    var placeholderURLs = PlaceholderPolicy().urls

    func apply(to o: inout DatasetOptions) throws {
        o.columns.verifyPHash = verifyPHash.flatMap { $0.isEmpty || $0.lowercased() == "none" ? nil : $0 }
        o.verification.phashDistance = phashDistance
        o.verification.computesPHash = computePHash
        if detectPlaceholders {
            var policy = PlaceholderPolicy()
            policy.urls = placeholderURLs
            o.verification.placeholders = policy
        }
    }
}
